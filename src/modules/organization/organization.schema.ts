import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { FlagProp, IdProp, ObjectProp, PermissionMapProp, TextProp, TimeProp } from '../../common/http/schema-props';
import { UserRecordSchema } from '../auth/auth.schema';

/** The OpenAPI schema of the Workspace record (WorkspaceRecord; docs/records.md, "Workspace"). */
@ApiSchema({ name: 'Workspace' })
export class WorkspaceRecordSchema {
  @IdProp() id: string;
  @TextProp() name: string;
  @TextProp() slug: string;
  @TextProp({ nullable: true }) logo: string | null;
  @TextProp({ nullable: true }) metadata: string | null;
  @TextProp({ nullable: true }) description: string | null;
  @TimeProp() createdAt: string;
}

/** Member (MemberRecord). */
@ApiSchema({ name: 'Member' })
export class MemberRecordSchema {
  @IdProp() id: string;
  @IdProp() userId: string;
  @IdProp() organizationId: string;
  @TextProp({ description: 'comma-joined when the member has several (`admin,reviewer`)' }) role: string;
  @TimeProp() createdAt: string;
}

/** A member in a list of members: with its user. */
@ApiSchema({ name: 'MemberWithUser' })
export class MemberWithUserSchema extends MemberRecordSchema {
  @ApiProperty({ type: UserRecordSchema }) user: UserRecordSchema;
}

export const INVITATION_STATUSES = ['pending', 'accepted', 'rejected', 'canceled'] as const;

/** Invitation (toInvitationRecord). */
@ApiSchema({ name: 'Invitation' })
export class InvitationRecordSchema {
  @IdProp() id: string;
  @TextProp() email: string;
  @TextProp() role: string;
  @IdProp() organizationId: string;
  @IdProp({ nullable: true }) inviterId: string | null;
  @IdProp({ nullable: true }) teamId: string | null;
  @ApiProperty({ enum: [...INVITATION_STATUSES] }) status: (typeof INVITATION_STATUSES)[number];
  @TimeProp() expiresAt: string;
  @TimeProp() createdAt: string;
}

/** list-invitations' entries: the invitation and its accept link. */
@ApiSchema({ name: 'InvitationListed' })
export class InvitationListedSchema extends InvitationRecordSchema {
  @TextProp({ description: 'the accept link the email carries (`{CLIENT_URL}/invitation/accept/{id}`)' }) link: string;
}

/** invite-member's answer: the invitation, whether its email will be sent, and its accept link. */
@ApiSchema({ name: 'InvitationSent' })
export class InvitationSentSchema extends InvitationListedSchema {
  @FlagProp({
    description:
      'true when the server has an email server (SMTP_HOST) and the worker will email the invitation; false when nothing is sent and the link must be handed over another way',
  })
  emailSent: boolean;
}

/** User invitation (toUserInvitationRecord): an invitation as its addressee sees it. */
@ApiSchema({ name: 'UserInvitation' })
export class UserInvitationRecordSchema {
  @IdProp() id: string;
  @IdProp() organizationId: string;
  @TextProp() organizationName: string;
  @TextProp() role: string;
  @TextProp({ nullable: true, description: "null when the inviter's account is gone" }) inviterName: string | null;
  @TimeProp() expiresAt: string;
}

/** Team (toTeamRecord). */
@ApiSchema({ name: 'Team' })
export class TeamRecordSchema {
  @IdProp() id: string;
  @TextProp() name: string;
  @IdProp() organizationId: string;
  @TimeProp() createdAt: string;
  @TimeProp() updatedAt: string;
}

/** Team member (toTeamMemberRecord). */
@ApiSchema({ name: 'TeamMember' })
export class TeamMemberRecordSchema {
  @IdProp() id: string;
  @IdProp() teamId: string;
  @IdProp() userId: string;
  @TimeProp() createdAt: string;
}

/** Role (`list-roles`; toOrganizationRoleRecord). */
@ApiSchema({ name: 'Role' })
export class RoleRecordSchema {
  @IdProp() id: string;
  @IdProp() organizationId: string;
  @TextProp() role: string;
  @PermissionMapProp() permission: Record<string, string[]>;
  @ObjectProp({ nullable: true }) additionalFields: Record<string, unknown> | null;
  @TimeProp() createdAt: string;
  @TimeProp() updatedAt: string;
}

/** `roleData` of create-role's answer (toCreatedRoleRecord). */
@ApiSchema({ name: 'CreatedRole' })
export class CreatedRoleSchema {
  @IdProp() id: string;
  @IdProp() organizationId: string;
  @TextProp() role: string;
  @PermissionMapProp() permission: Record<string, string[]>;
  @TimeProp() createdAt: string;
}

/** create-role's answer `{success: true, roleData, statements}`. */
@ApiSchema({ name: 'CreateRoleAnswer' })
export class CreateRoleAnswerSchema {
  @ApiProperty({ type: Boolean, enum: [true] }) success: true;
  @ApiProperty({ type: CreatedRoleSchema }) roleData: CreatedRoleSchema;
  @PermissionMapProp() statements: Record<string, string[]>;
}

/** Full workspace (`get-full-organization`). */
@ApiSchema({ name: 'FullWorkspace' })
export class FullWorkspaceSchema extends WorkspaceRecordSchema {
  @ApiProperty({ type: [MemberWithUserSchema] }) members: MemberWithUserSchema[];
  @ApiProperty({ type: [InvitationRecordSchema], description: 'empty unless the caller manages invitations' }) invitations: InvitationRecordSchema[];
  @ApiProperty({ type: [TeamRecordSchema] }) teams: TeamRecordSchema[];
}

/** `{member}` (update-member-role, remove-member). */
@ApiSchema({ name: 'MemberAnswer' })
export class MemberAnswerSchema {
  @ApiProperty({ type: MemberRecordSchema }) member: MemberRecordSchema;
}

/** accept-invitation's answer `{invitation, member}`. */
@ApiSchema({ name: 'AcceptInvitationAnswer' })
export class AcceptInvitationAnswerSchema {
  @ApiProperty({ type: InvitationRecordSchema }) invitation: InvitationRecordSchema;
  @ApiProperty({ type: MemberRecordSchema }) member: MemberRecordSchema;
}
