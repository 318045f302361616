import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { InstanceAdminGuard } from '../guards/instance-admin.guard';

export const INSTANCE_ADMIN = 'tandem:instance-admin';

/** The route is for instance admins signed in with a session token; everyone else gets 403 (API keys included). */
export const InstanceAdminOnly = () => applyDecorators(SetMetadata(INSTANCE_ADMIN, true), UseGuards(InstanceAdminGuard));
