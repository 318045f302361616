import { iso } from '../../database/sql';
import { ExternalLinkRow, ExternalResourceType } from './external-link.repository';
import { httpUrl } from './git-events';

/** A link between a task and a git host's branch, pull request or issue, as the API shows it. */
export interface ExternalLinkRecord {
  id: string;
  taskId: string;
  integrationId: string | null;
  resourceType: ExternalResourceType;
  externalId: string;
  url: string | null;
  title: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** `url` only when it is an absolute http(s) URL, also for a link stored before payload links were checked (docs/git-hosts.md, "Links from the hosts"). */
export const toExternalLinkRecord = (r: ExternalLinkRow & { created_at: Date; updated_at: Date }): ExternalLinkRecord => ({
  id: r.id,
  taskId: r.task_id,
  integrationId: r.integration_id,
  resourceType: r.resource_type,
  externalId: r.external_id,
  url: httpUrl(r.url),
  title: r.title,
  metadata: r.metadata ?? {},
  createdAt: iso(r.created_at)!,
  updatedAt: iso(r.updated_at)!,
});
