import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { EmailComposerRegistry } from '../mail/email-composer.registry';
import { MailModule } from '../mail/mail.module';
import { InvitationController } from './invitation.controller';
import { Invitation } from './invitation.entity';
import { INVITATION_EMAIL_JOB, InvitationService } from './invitation.service';
import { MemberController } from './member.controller';
import { Member } from './member.entity';
import { MemberService } from './member.service';
import { OrganizationController } from './organization.controller';
import { OrganizationRole } from './organization-role.entity';
import { ORGANIZATION_SCOPE_KINDS } from './organization.scopes';
import { OrganizationService } from './organization.service';
import { RoleService } from './role.service';
import { TeamController } from './team.controller';
import { TeamMember } from './team-member.entity';
import { Team } from './team.entity';
import { TeamService } from './team.service';
import { Workspace } from './workspace.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Workspace, Member, Team, TeamMember, Invitation, OrganizationRole]), MailModule],
  controllers: [OrganizationController, TeamController, InvitationController, MemberController],
  providers: [OrganizationService, TeamService, InvitationService, MemberService, RoleService],
  exports: [OrganizationService],
})
export class OrganizationModule implements OnModuleInit {
  constructor(
    private readonly scopes: ScopeRegistry,
    private readonly composers: EmailComposerRegistry,
    private readonly invitations: InvitationService,
  ) {}

  onModuleInit(): void {
    for (const [kind, def] of Object.entries(ORGANIZATION_SCOPE_KINDS)) this.scopes.register(kind, def);
    this.composers.register(INVITATION_EMAIL_JOB, (job) => this.invitations.composeEmail(job));
  }
}
