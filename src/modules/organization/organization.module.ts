import { Module, OnModuleInit } from '@nestjs/common';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { UserDataModule } from '../auth/user-data.module';
import { MailModule } from '../mail/mail.module';
import { InvitationController } from './invitation.controller';
import { InvitationService } from './invitation.service';
import { MemberController } from './member.controller';
import { MemberService } from './member.service';
import { OrganizationController } from './organization.controller';
import { OrganizationDataModule } from './organization-data.module';
import { WorkspaceMembersController } from './workspace-members.controller';
import { ORGANIZATION_SCOPE_KINDS } from './organization.scopes';
import { OrganizationService } from './organization.service';
import { RoleService } from './role.service';
import { TeamController } from './team.controller';
import { TeamService } from './team.service';

/** The organization routes (API role). Its tables live in OrganizationDataModule. */
@Module({
  imports: [OrganizationDataModule, UserDataModule, MailModule],
  controllers: [OrganizationController, TeamController, InvitationController, MemberController, WorkspaceMembersController],
  providers: [OrganizationService, TeamService, InvitationService, MemberService, RoleService],
  exports: [OrganizationService],
})
export class OrganizationModule implements OnModuleInit {
  constructor(private readonly scopes: ScopeRegistry) {}

  onModuleInit(): void {
    for (const [kind, def] of Object.entries(ORGANIZATION_SCOPE_KINDS)) this.scopes.register(kind, def);
  }
}
