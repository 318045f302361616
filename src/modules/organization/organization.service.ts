import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { CryptoService } from '../../common/crypto/crypto.service';
import { AuthService } from '../auth/auth.service';
import { User } from '../auth/user.entity';
import { toUserRecord } from '../auth/user.record';
import { CreateOrganizationDto, WorkspaceFieldsDto } from './dto/organization.dto';
import { Invitation } from './invitation.entity';
import { toInvitationRecord } from './invitation.record';
import { Member } from './member.entity';
import { toMemberRecord } from './member.record';
import { isUniqueViolation } from './organization-access';
import { OrganizationRole } from './organization-role.entity';
import { toOrganizationRoleRecord } from './organization-role.record';
import { TeamMember } from './team-member.entity';
import { Team } from './team.entity';
import { toTeamRecord } from './team.record';
import { Workspace } from './workspace.entity';
import { toWorkspaceRecord } from './workspace.record';

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
  ) {}

  async create(user: AuthUser, dto: CreateOrganizationDto) {
    for (let attempt = 0; ; attempt++) {
      // An explicit slug must be free; a derived one gets a random suffix when taken.
      const slug = dto.slug ?? (attempt === 0 ? slugify(dto.name) : `${slugify(dto.name).slice(0, 43)}-${CryptoService.randomToken(4).toLowerCase().replace(/[^a-z0-9]/g, 'x').slice(0, 6)}`);
      try {
        return await this.ds.transaction(async (m) => {
          const ws = await m.save(
            m.create(Workspace, {
              name: dto.name,
              slug,
              logo: dto.logo ?? null,
              metadata: dto.metadata ?? null,
              description: dto.description ?? null,
            }),
          );
          await m.save(m.create(Member, { organizationId: ws.id, userId: user.id, role: 'owner' }));
          const team = await m.save(m.create(Team, { organizationId: ws.id, name: ws.name }));
          await m.save(m.create(TeamMember, { teamId: team.id, userId: user.id }));
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
    const rows = await this.ds
      .getRepository(Workspace)
      .createQueryBuilder('w')
      .innerJoin(Member, 'm', 'm.organization_id = w.id AND m.user_id = :uid', { uid: user.id })
      .orderBy('w.created_at', 'ASC')
      .getMany();
    return rows.map(toWorkspaceRecord);
  }

  async get(workspaceId: string) {
    const ws = await this.ds.getRepository(Workspace).findOneBy({ id: workspaceId });
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
      return toWorkspaceRecord(await this.ds.getRepository(Workspace).save(ws));
    } catch (err) {
      if (isUniqueViolation(err, 'workspace_slug_key')) throw new ConflictException('Slug is already taken');
      throw err;
    }
  }

  /** Deletes the workspace; foreign keys cascade to everything in it. */
  async delete(workspaceId: string) {
    const ws = await this.get(workspaceId);
    const record = toWorkspaceRecord(ws);
    await this.ds.getRepository(Workspace).delete({ id: workspaceId });
    return record;
  }

  async setActive(user: AuthUser, workspaceId: string | null) {
    if (!user.sessionId) throw new BadRequestException('An active organization needs a session token');
    await this.auth.setActiveOrganization(user.sessionId, workspaceId);
    return workspaceId ? toWorkspaceRecord(await this.get(workspaceId)) : null;
  }

  async listMembers(workspaceId: string, manager: EntityManager = this.ds.manager) {
    const rows = await manager
      .getRepository(Member)
      .createQueryBuilder('m')
      .innerJoinAndMapOne('m.user', User, 'u', 'u.id = m.user_id')
      .where('m.organization_id = :id', { id: workspaceId })
      .orderBy('m.created_at', 'ASC')
      .getMany();
    return rows.map((m) => ({ ...toMemberRecord(m), user: toUserRecord((m as any).user) }));
  }

  async listInvitations(workspaceId: string) {
    const rows = await this.ds.getRepository(Invitation).find({ where: { organizationId: workspaceId }, order: { createdAt: 'ASC' } });
    return rows.map(toInvitationRecord);
  }

  async listTeams(workspaceId: string) {
    const rows = await this.ds.getRepository(Team).find({ where: { organizationId: workspaceId }, order: { createdAt: 'ASC' } });
    return rows.map(toTeamRecord);
  }

  async listRoles(workspaceId: string) {
    const rows = await this.ds.getRepository(OrganizationRole).find({ where: { organizationId: workspaceId }, order: { createdAt: 'ASC' } });
    return rows.map(toOrganizationRoleRecord);
  }
}
