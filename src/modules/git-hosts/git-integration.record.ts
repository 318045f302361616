import { maskAccessToken } from '../../common/crypto/mask';
import { iso } from '../../database/sql';

/** The two git-host integrations (docs/git-hosts.md); one of each per project. */
export type GitSource = 'selfgit' | 'hostedgit';

/** The default branch pattern: the project's key, a dash and the task number (`API-12`). */
export const DEFAULT_BRANCH_PATTERN = '{slug}-{number}';

/** git_integration as selected by GIT_INTEGRATION_FIELDS; secret columns hold ciphertext. */
export interface GitIntegrationRow {
  id: string;
  workspace_id: string;
  project_id: string;
  type: GitSource;
  is_active: boolean;
  base_url: string | null;
  access_token: string | null;
  webhook_secret: string | null;
  repository_owner: string;
  repository_name: string;
  repository_key: string;
  /** bigint: node-postgres answers it as a string. */
  installation_id: string | null;
  branch_pattern: string;
  comment_task_link: boolean;
  created_at: Date;
  updated_at: Date;
}

/** The row as an inbound webhook reads it: with the previous webhook secret (ciphertext) while a rotation's overlap lasts, else null. */
export interface GitWebhookIntegrationRow extends GitIntegrationRow {
  webhook_previous_secret: string | null;
}

export const GIT_INTEGRATION_FIELDS =
  'id, workspace_id, project_id, type, is_active, base_url, access_token, webhook_secret, repository_owner, repository_name, repository_key, installation_id, branch_pattern, comment_task_link, created_at, updated_at';

/** Selfgit integration record, field for field as docs/git-hosts.md lists it. */
export interface SelfgitIntegrationRecord {
  id: string;
  projectId: string;
  baseUrl: string;
  repositoryOwner: string;
  repositoryName: string;
  maskedAccessToken: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
  webhookUrl: string;
  /** In clear for members who manage the workspace's settings, `""` for the others. */
  webhookSecret: string;
  branchPattern: string;
  commentTaskLinkOnSelfgitIssue: boolean;
}

/** Hostedgit integration record. */
export interface HostedgitIntegrationRecord {
  id: string;
  projectId: string;
  repositoryOwner: string;
  repositoryName: string;
  installationId: number | null;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
  branchPattern: string;
  commentTaskLinkOnHostedgitIssue: boolean;
}

/** `${PUBLIC_API_URL}/api/selfgit-integration/webhook/<id>`: where the selfgit repository's webhook posts. */
export const selfgitWebhookUrl = (publicApiUrl: string, id: string) => `${publicApiUrl}/api/selfgit-integration/webhook/${id}`;

/** `${PUBLIC_API_URL}/api/hostedgit-integration/webhook`: the hostedgit App's webhook URL (one for every repository). */
export const hostedgitWebhookUrl = (publicApiUrl: string) => `${publicApiUrl}/api/hostedgit-integration/webhook`;

export function toSelfgitRecord(
  r: GitIntegrationRow,
  clear: { accessToken: string | null; webhookSecret: string | null },
  opts: { publicApiUrl: string; showSecret: boolean },
): SelfgitIntegrationRecord {
  return {
    id: r.id,
    projectId: r.project_id,
    baseUrl: r.base_url ?? '',
    repositoryOwner: r.repository_owner,
    repositoryName: r.repository_name,
    maskedAccessToken: maskAccessToken(clear.accessToken),
    isActive: r.is_active,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    webhookUrl: selfgitWebhookUrl(opts.publicApiUrl, r.id),
    webhookSecret: opts.showSecret ? (clear.webhookSecret ?? '') : '',
    branchPattern: r.branch_pattern,
    commentTaskLinkOnSelfgitIssue: r.comment_task_link,
  };
}

export function toHostedgitRecord(r: GitIntegrationRow): HostedgitIntegrationRecord {
  return {
    id: r.id,
    projectId: r.project_id,
    repositoryOwner: r.repository_owner,
    repositoryName: r.repository_name,
    installationId: r.installation_id === null ? null : Number(r.installation_id),
    isActive: r.is_active,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    branchPattern: r.branch_pattern,
    commentTaskLinkOnHostedgitIssue: r.comment_task_link,
  };
}
