import { Workspace } from './workspace.entity';

export interface WorkspaceRecord {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: string | null;
  description: string | null;
  createdAt: string;
}

export const toWorkspaceRecord = (w: Workspace): WorkspaceRecord => ({
  id: w.id,
  name: w.name,
  slug: w.slug,
  logo: w.logo,
  metadata: w.metadata,
  description: w.description,
  createdAt: w.createdAt.toISOString(),
});
