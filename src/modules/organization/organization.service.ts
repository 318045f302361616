import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { CryptoService } from '../../common/crypto/crypto.service';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { isUniqueViolation } from '../../database/sql';
import { AuthService } from '../auth/auth.service';
import { toUserRecord } from '../auth/user.record';
import { UserRepository } from '../auth/user.repository';
import { CreateOrganizationDto, WorkspaceFieldsDto } from './dto/organization.dto';
import { invitationAcceptUrl } from './invitation-email.composer';
import { toInvitationRecord } from './invitation.record';
import { InvitationRepository } from './invitation.repository';
import { toMemberRecord } from './member.record';
import { MemberRepository } from './member.repository';
import { MyPermissionsRecord, toMyPermissionsRecord } from './my-permissions.record';
import { toOrganizationRoleRecord } from './organization-role.record';
import { RoleRepository } from './role.repository';
import { toTeamRecord } from './team.record';
import { TeamRepository } from './team.repository';
import { Workspace } from './workspace.entity';
import { toWorkspaceRecord } from './workspace.record';
import { WorkspaceRepository } from './workspace.repository';

export function slugify(s: string): string {
  const slug = s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/g, '');
  return slug || 'workspace';
}

@Injectable()
export class OrganizationService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly auth: AuthService,
    private readonly workspaces: WorkspaceRepository,
    private readonly members: MemberRepository,
    private readonly invitations: InvitationRepository,
    private readonly teams: TeamRepository,
    private readonly roles: RoleRepository,
    private readonly users: UserRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** What the caller's roles allow in the scope's workspace, narrowed by its API key's scopes. */
  myPermissions(scope: ResolvedScope, user: AuthUser): MyPermissionsRecord {
    return toMyPermissionsRecord(scope, user);
  }

  async create(user: AuthUser, dto: CreateOrganizationDto) {
    for (let attempt = 0; ; attempt++) {
      // An explicit slug must be free; a derived one gets a random suffix when taken.
      const slug =
        dto.slug ??
        (attempt === 0
          ? slugify(dto.name)
          : `${slugify(dto.name).slice(0, 43)}-${CryptoService.randomToken(4)
              .toLowerCase()
              .replace(/[^a-z0-9]/g, 'x')
              .slice(0, 6)}`);
      try {
        return await this.ds.transaction(async (m) => {
          const ws = await this.workspaces.insert({ name: dto.name, slug, logo: dto.logo ?? null, metadata: dto.metadata ?? null, description: dto.description ?? null }, m);
          // The creator owns the workspace and is in its first team, named after it.
          await this.members.insert(ws.id, user.id, 'owner', m);
          const team = await this.teams.insert(ws.id, ws.name, m);
          await this.teams.addMember(ws.id, team.id, user.id, m);
          return toWorkspaceRecord(ws);
        });
      } catch (err) {
        if (!isUniqueViolation(err, 'workspace_slug_key')) throw err;
        if (dto.slug) throw new ConflictException('Slug is already taken');
        if (attempt >= 5) throw err;
      }
    }
  }

  async list(user: AuthUser) {
    return (await this.workspaces.listOfUser(user.id)).map(toWorkspaceRecord);
  }

  async get(workspaceId: string): Promise<Workspace> {
    const ws = await this.workspaces.findById(workspaceId);
    if (!ws) throw new NotFoundException('Workspace not found');
    return ws;
  }

  /** The workspace with members and teams; invitations only when the caller may see them (else `[]`). */
  async getFull(workspaceId: string, opts: { withInvitations: boolean }) {
    const ws = await this.get(workspaceId);
    const [members, invitations, teams] = await Promise.all([
      this.listMembers(workspaceId),
      opts.withInvitations ? this.listInvitations(workspaceId) : [],
      this.listTeams(workspaceId),
    ]);
    return { ...toWorkspaceRecord(ws), members, invitations, teams };
  }

  async update(workspaceId: string, data: WorkspaceFieldsDto) {
    const ws = await this.get(workspaceId);
    for (const k of ['name', 'slug', 'logo', 'metadata', 'description'] as const) {
      if (data[k] !== undefined) (ws as any)[k] = data[k];
    }
    try {
      return toWorkspaceRecord(await this.workspaces.save(ws));
    } catch (err) {
      if (isUniqueViolation(err, 'workspace_slug_key')) throw new ConflictException('Slug is already taken');
      throw err;
    }
  }

  /** Deletes the workspace; foreign keys cascade to everything in it. */
  async delete(workspaceId: string) {
    const ws = await this.get(workspaceId);
    const record = toWorkspaceRecord(ws);
    await this.workspaces.delete(workspaceId);
    return record;
  }

  async setActive(user: AuthUser, workspaceId: string | null) {
    if (!user.sessionId) throw new BadRequestException('An active organization needs a session token');
    await this.auth.setActiveOrganization(user.sessionId, workspaceId);
    return workspaceId ? toWorkspaceRecord(await this.get(workspaceId)) : null;
  }

  /** Members, oldest first, each with its user. */
  async listMembers(workspaceId: string) {
    const members = await this.members.listInWorkspace(workspaceId);
    const users = new Map((await this.users.findByIds([...new Set(members.map((m) => m.userId))])).map((u) => [u.id, u]));
    // Read in two statements: a user deleted in between drops out, as it would from a join.
    return members.filter((m) => users.has(m.userId)).map((m) => ({ ...toMemberRecord(m), user: toUserRecord(users.get(m.userId)!) }));
  }

  async listInvitations(workspaceId: string) {
    return (await this.invitations.listInWorkspace(workspaceId)).map(toInvitationRecord);
  }

  /**
   * list-invitations' answer: each invitation with its accept `link` (the one invite-member answers
   * and the email carries), so that a pending one can be handed over again, whenever it was made.
   */
  async listInvitationsWithLinks(workspaceId: string) {
    return (await this.listInvitations(workspaceId)).map((i) => ({ ...i, link: invitationAcceptUrl(this.config.clientUrl, i.id) }));
  }

  async listTeams(workspaceId: string) {
    return (await this.teams.listInWorkspace(workspaceId)).map(toTeamRecord);
  }

  async listRoles(workspaceId: string) {
    return (await this.roles.listInWorkspace(workspaceId)).map(toOrganizationRoleRecord);
  }
}
