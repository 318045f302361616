import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { OrganizationRole } from './organization-role.entity';

export type NewRole = Pick<OrganizationRole, 'role' | 'permission' | 'additionalFields'>;

/** Custom roles of a workspace ({resource: [actions]}); the static roles live in code. */
@Injectable()
export class RoleRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Which of `names` are custom roles of the workspace. */
  async existingNames(workspaceId: string, names: string[], m: EntityManager = this.ds.manager): Promise<Set<string>> {
    const rows: { role: string }[] = await m.query(`SELECT role FROM organization_role WHERE organization_id = $1 AND role = ANY($2::text[])`, [workspaceId, names]);
    return new Set(rows.map((r) => r.role));
  }

  /** How many custom roles the workspace has, and whether `name` is one of them (case-insensitively). */
  async countAndNameTaken(workspaceId: string, name: string, m: EntityManager = this.ds.manager): Promise<{ count: number; taken: boolean }> {
    const [{ count, taken }] = await m.query(`SELECT count(*)::int AS count, bool_or(lower(role) = lower($2)) AS taken FROM organization_role WHERE organization_id = $1`, [
      workspaceId,
      name,
    ]);
    return { count, taken: Boolean(taken) };
  }

  insert(workspaceId: string, fields: NewRole, m: EntityManager = this.ds.manager): Promise<OrganizationRole> {
    return m.save(m.create(OrganizationRole, { ...fields, organizationId: workspaceId }));
  }

  listInWorkspace(workspaceId: string, m: EntityManager = this.ds.manager): Promise<OrganizationRole[]> {
    return m.find(OrganizationRole, { where: { organizationId: workspaceId }, order: { createdAt: 'ASC' } });
  }
}
