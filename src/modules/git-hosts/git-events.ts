/**
 * What the git-host integrations act on, the same for both hosts: each host's webhook payloads
 * and API answers are read into these shapes (git-payloads.ts), and GitSyncService applies them.
 */

export interface GitUser {
  name: string | null;
  avatar: string | null;
}

export interface GitIssue {
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  labels: { name: string; color?: unknown }[];
  url: string | null;
}

export interface GitComment {
  /** The host's comment id, as text. */
  id: string;
  body: string | null;
  author: GitUser;
  url: string | null;
}

export interface GitPullRequest {
  number: number;
  title: string;
  body: string | null;
  /** The head branch's name. */
  branch: string | null;
  url: string | null;
}

export type IssueAction = 'opened' | 'edited' | 'closed' | 'reopened' | 'labeled';

/** An inbound event, once read. `ignored` says why nothing is done with it. */
export type GitEvent =
  | { kind: 'issue'; action: IssueAction; issue: GitIssue }
  | { kind: 'issue_comment'; issue: GitIssue; comment: GitComment }
  | { kind: 'push'; branch: string; url: string | null }
  | { kind: 'pull_request'; action: 'opened' | 'closed' | 'merged' | 'updated'; pullRequest: GitPullRequest }
  | { kind: 'ignored'; reason: string };

/** The repository a payload is about, as `owner/name` (for matching it with the integration). */
export interface PayloadRepository {
  owner: string;
  name: string;
}

/** A JSON object's member as a string, or null. */
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** A JSON object's member as a positive integer, or null. */
export const posInt = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : null);
/** Longest link kept from a payload (docs/git-hosts.md, "Links from the hosts"). */
export const MAX_PAYLOAD_URL_LENGTH = 2048;

/**
 * A JSON object's member as a link that may be stored and served: an absolute `http:` or `https:`
 * URL of at most MAX_PAYLOAD_URL_LENGTH characters, without user or password, in its normalised
 * form; anything else (`javascript:`, `data:`, a relative or malformed URL, not a string) is null
 * (docs/git-hosts.md, "Links from the hosts").
 */
export const httpUrl = (v: unknown): string | null => {
  if (typeof v !== 'string' || v.length > MAX_PAYLOAD_URL_LENGTH) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname || u.username || u.password) return null;
  return u.href.length <= MAX_PAYLOAD_URL_LENGTH ? u.href : null;
};
/** A JSON value as an object (never an array), or an empty one. */
export const obj = (v: unknown): Record<string, any> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, any>) : {});
