import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Invitation } from './invitation.entity';
import { InvitationRepository } from './invitation.repository';
import { Member } from './member.entity';
import { MemberRepository } from './member.repository';
import { OrganizationRole } from './organization-role.entity';
import { RoleRepository } from './role.repository';
import { TeamMember } from './team-member.entity';
import { Team } from './team.entity';
import { TeamRepository } from './team.repository';
import { Workspace } from './workspace.entity';
import { WorkspaceRepository } from './workspace.repository';

const REPOSITORIES = [WorkspaceRepository, MemberRepository, InvitationRepository, TeamRepository, RoleRepository];

/**
 * The organization tables and their repositories, without any route: OrganizationModule's
 * services, other modules (auth asks whether an email is invited) and the worker role (the
 * invitation email) all read them through here.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Workspace, Member, Team, TeamMember, Invitation, OrganizationRole])],
  providers: REPOSITORIES,
  exports: REPOSITORIES,
})
export class OrganizationDataModule {}
