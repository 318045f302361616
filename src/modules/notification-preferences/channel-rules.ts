/**
 * Which of a user's channels a notification uses (docs/notifications.md, "Which channels"): a
 * channel delivers when it is enabled and configured globally; a workspace rule, when the user has
 * one for the event's workspace, narrows that: an inactive rule mutes the workspace, the rule's
 * flag for the channel must be on, and `selected` limits it to the rule's projects. Pure.
 */

import { PERSON_CHANNELS, PersonChannel } from '../delivery/channels';

/** A user's delivery channels, in the order the record and the docs list them (src/modules/delivery/channels.ts). */
export const USER_CHANNELS: readonly UserChannel[] = PERSON_CHANNELS;
export type UserChannel = PersonChannel;

export const PROJECT_MODES = ['all', 'selected'] as const;
export type ProjectMode = (typeof PROJECT_MODES)[number];

/** What the decision reads of the global preferences (secrets only as "there is one"). */
export interface GlobalChannels {
  email_enabled: boolean;
  topicpush_enabled: boolean;
  topicpush_server_url: string | null;
  topicpush_topic: string | null;
  serverpush_enabled: boolean;
  serverpush_server_url: string | null;
  serverpush_token: string | null;
  webhook_enabled: boolean;
  webhook_url: string | null;
}

/** What the decision reads of a workspace rule. */
export interface RuleChannels {
  is_active: boolean;
  email_enabled: boolean;
  topicpush_enabled: boolean;
  serverpush_enabled: boolean;
  webhook_enabled: boolean;
  project_mode: ProjectMode;
  selected_project_ids: readonly string[];
}

/** A channel has what it needs to send: email the user's address (always), topicpush a server and a topic, serverpush a server and a token, webhook a URL. */
export function channelConfigured(g: GlobalChannels, channel: UserChannel): boolean {
  switch (channel) {
    case 'email':
      return true;
    case 'topicpush':
      return !!g.topicpush_server_url && !!g.topicpush_topic;
    case 'serverpush':
      return !!g.serverpush_server_url && !!g.serverpush_token;
    case 'webhook':
      return !!g.webhook_url;
  }
}

export const channelEnabled = (g: GlobalChannels | RuleChannels, channel: UserChannel): boolean => g[`${channel}_enabled`];

/** The channels a notification about project `projectId` goes out on; none without global preferences (everything is off by default). */
export function channelsFor(global: GlobalChannels | undefined, rule: RuleChannels | undefined, projectId: string | null): UserChannel[] {
  if (!global) return [];
  if (rule && !rule.is_active) return [];
  if (rule && rule.project_mode === 'selected' && !(projectId && rule.selected_project_ids.includes(projectId))) return [];
  return USER_CHANNELS.filter((c) => channelEnabled(global, c) && channelConfigured(global, c) && (!rule || channelEnabled(rule, c)));
}
