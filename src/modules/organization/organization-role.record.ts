import { OrganizationRole } from './organization-role.entity';

/** A custom role as list-roles answers it. */
export const toOrganizationRoleRecord = (r: OrganizationRole) => ({
  id: r.id,
  organizationId: r.organizationId,
  role: r.role,
  permission: r.permission,
  additionalFields: r.additionalFields,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** A new custom role as create-role answers it (`roleData`). */
export const toCreatedRoleRecord = (r: OrganizationRole) => ({
  id: r.id,
  organizationId: r.organizationId,
  role: r.role,
  permission: r.permission,
  createdAt: r.createdAt.toISOString(),
});
