import { channelsFor, GlobalChannels, RuleChannels } from './channel-rules';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';

/** Every channel enabled and configured. */
const allOn: GlobalChannels = {
  email_enabled: true,
  topicpush_enabled: true,
  topicpush_server_url: 'https://push.example',
  topicpush_topic: 'me',
  serverpush_enabled: true,
  serverpush_server_url: 'https://gotify.example',
  serverpush_token: 'v2:sealed',
  webhook_enabled: true,
  webhook_url: 'https://hooks.example/me',
};

const rule = (r: Partial<RuleChannels> = {}): RuleChannels => ({
  is_active: true,
  email_enabled: true,
  topicpush_enabled: true,
  serverpush_enabled: true,
  webhook_enabled: true,
  project_mode: 'all',
  selected_project_ids: [],
  ...r,
});

describe('channelsFor', () => {
  it('no preferences saved: nothing (every channel is off by default)', () => {
    expect(channelsFor(undefined, undefined, P1)).toEqual([]);
    expect(channelsFor(undefined, rule(), P1)).toEqual([]);
  });

  it('global on, no rule: every channel that is enabled and configured', () => {
    expect(channelsFor(allOn, undefined, P1)).toEqual(['email', 'topicpush', 'serverpush', 'webhook']);
    expect(channelsFor({ ...allOn, topicpush_enabled: false, webhook_url: null }, undefined, P1)).toEqual(['email', 'serverpush']);
    // Enabled but not configured: topicpush needs server and topic, serverpush server and token.
    expect(channelsFor({ ...allOn, topicpush_topic: null, serverpush_token: null }, undefined, P1)).toEqual(['email', 'webhook']);
    // Each channel by its own settings: one configured, the other not, either way round.
    expect(channelsFor({ ...allOn, serverpush_token: null }, undefined, P1)).toEqual(['email', 'topicpush', 'webhook']);
    expect(channelsFor({ ...allOn, topicpush_server_url: null }, undefined, P1)).toEqual(['email', 'serverpush', 'webhook']);
  });

  it('a global off channel stays off whatever the rule says', () => {
    expect(channelsFor({ ...allOn, email_enabled: false }, rule({ email_enabled: true }), P1)).toEqual(['topicpush', 'serverpush', 'webhook']);
  });

  it('an inactive rule mutes the workspace', () => {
    expect(channelsFor(allOn, rule({ is_active: false }), P1)).toEqual([]);
  });

  it('a rule with a channel off keeps the others', () => {
    expect(channelsFor(allOn, rule({ topicpush_enabled: false, webhook_enabled: false }), P1)).toEqual(['email', 'serverpush']);
  });

  it('selected projects: only events of those projects', () => {
    const r = rule({ project_mode: 'selected', selected_project_ids: [P1] });
    expect(channelsFor(allOn, r, P1)).toEqual(['email', 'topicpush', 'serverpush', 'webhook']);
    expect(channelsFor(allOn, r, P2)).toEqual([]);
    expect(channelsFor(allOn, r, null)).toEqual([]);
    // `all` ignores any list.
    expect(channelsFor(allOn, rule({ project_mode: 'all', selected_project_ids: [P1] }), P2)).toHaveLength(4);
  });
});
