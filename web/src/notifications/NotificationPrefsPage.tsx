import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import type { NotificationPreferences, PreferencesBody, Workspace, WorkspaceRule, WorkspaceRuleBody } from '../api/types';
import { Header } from '../shell/Header';
import { Empty, ErrorState, Loading } from '../ui/States';
import { navigate } from '../app/router';
import { useProjects } from '../api/workspace-queries';

const PREFS_KEY = ['notification-preferences'];
const CHANNELS = ['email', 'topicpush', 'serverpush', 'webhook'] as const;
type Channel = (typeof CHANNELS)[number];
const CHANNEL_NAMES: Record<Channel, string> = { email: 'Email', topicpush: 'Topic push', serverpush: 'Server push', webhook: 'Webhook' };
const enabledOf = (p: NotificationPreferences, c: Channel) => p[`${c}Enabled`];

/**
 * Where the user's notifications go besides the in-app list (docs/notifications.md): the global
 * channels, and per workspace a rule that narrows them. Tokens and the secret are write-only: the
 * API answers their masks.
 */
export function NotificationPrefsPage() {
  const prefs = useQuery({ queryKey: PREFS_KEY, queryFn: async () => must(await api.GET('/api/notification-preferences')) });
  return (
    <>
      <Header workspaceId={null} />
      <main id="main" tabIndex={-1} className="page account prefs-page">
        <nav aria-label="Account">
          <a
            href="/account"
            onClick={(e) => {
              e.preventDefault();
              navigate('/account');
            }}
          >
            ← Your account
          </a>
        </nav>
        <h1>Notification preferences</h1>
        <p className="muted">Every notification is in the bell’s list. Here you choose which of them also go out by email, push or webhook.</p>
        {prefs.isPending && <Loading what="your preferences" />}
        {prefs.error && <ErrorState error={prefs.error} />}
        {prefs.data && (
          <>
            <Channels prefs={prefs.data} />
            <Rules prefs={prefs.data} />
          </>
        )}
      </main>
    </>
  );
}

function Channels({ prefs }: { prefs: NotificationPreferences }) {
  const queryClient = useQueryClient();
  const [f, setF] = useState({
    emailEnabled: prefs.emailEnabled,
    topicpushEnabled: prefs.topicpushEnabled,
    topicpushServerUrl: prefs.topicpushServerUrl ?? '',
    topicpushTopic: prefs.topicpushTopic ?? '',
    topicpushToken: '',
    serverpushEnabled: prefs.serverpushEnabled,
    serverpushServerUrl: prefs.serverpushServerUrl ?? '',
    serverpushToken: '',
    webhookEnabled: prefs.webhookEnabled,
    webhookUrl: prefs.webhookUrl ?? '',
    webhookSecret: '',
  });
  const set = <K extends keyof typeof f>(k: K, v: (typeof f)[K]) => setF((x) => ({ ...x, [k]: v }));
  const save = useMutation({
    mutationFn: async (body: PreferencesBody) => must(await api.PUT('/api/notification-preferences', { body })),
    onSuccess: (p) => {
      queryClient.setQueryData(PREFS_KEY, p);
      setF((x) => ({ ...x, topicpushToken: '', serverpushToken: '', webhookSecret: '' }));
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    // A token or the secret is sent only when typed: empty keeps the stored one ("" would remove it).
    const { topicpushToken, serverpushToken, webhookSecret, ...rest } = f;
    save.mutate({
      ...rest,
      ...(topicpushToken ? { topicpushToken } : {}),
      ...(serverpushToken ? { serverpushToken } : {}),
      ...(webhookSecret ? { webhookSecret } : {}),
    });
  };
  const removeSecret = (field: 'topicpushToken' | 'serverpushToken' | 'webhookSecret') => save.mutate({ [field]: null });
  return (
    <section className="section" aria-labelledby="prefs-channels-h">
      <h2 id="prefs-channels-h">Channels</h2>
      <form className="stack narrow" onSubmit={onSubmit}>
        <fieldset className="prefs-channel">
          <legend>Email</legend>
          <label className="check">
            <input type="checkbox" checked={f.emailEnabled} onChange={(e) => set('emailEnabled', e.target.checked)} />
            Email notifications
          </label>
          <p className="muted">To {prefs.emailAddress}.</p>
        </fieldset>

        <fieldset className="prefs-channel">
          <legend>Topic push</legend>
          <label className="check">
            <input type="checkbox" checked={f.topicpushEnabled} onChange={(e) => set('topicpushEnabled', e.target.checked)} />
            Topic push notifications
          </label>
          <label>
            Topic push server URL
            <input type="url" value={f.topicpushServerUrl} onChange={(e) => set('topicpushServerUrl', e.target.value)} placeholder="https://ntfy.example.com" />
          </label>
          <label>
            Topic
            <input value={f.topicpushTopic} onChange={(e) => set('topicpushTopic', e.target.value)} maxLength={64} />
          </label>
          <Secret
            label="Topic push access token"
            value={f.topicpushToken}
            onChange={(v) => set('topicpushToken', v)}
            masked={prefs.maskedTopicpushToken}
            onRemove={() => removeSecret('topicpushToken')}
            busy={save.isPending}
          />
          <Configured on={prefs.topicpushConfigured} needs="a server URL and a topic" />
        </fieldset>

        <fieldset className="prefs-channel">
          <legend>Server push</legend>
          <label className="check">
            <input type="checkbox" checked={f.serverpushEnabled} onChange={(e) => set('serverpushEnabled', e.target.checked)} />
            Server push notifications
          </label>
          <label>
            Server push server URL
            <input type="url" value={f.serverpushServerUrl} onChange={(e) => set('serverpushServerUrl', e.target.value)} placeholder="https://gotify.example.com" />
          </label>
          <Secret
            label="Server push application token"
            value={f.serverpushToken}
            onChange={(v) => set('serverpushToken', v)}
            masked={prefs.maskedServerpushToken}
            onRemove={() => removeSecret('serverpushToken')}
            busy={save.isPending}
          />
          <Configured on={prefs.serverpushConfigured} needs="a server URL and a token" />
        </fieldset>

        <fieldset className="prefs-channel">
          <legend>Webhook</legend>
          <label className="check">
            <input type="checkbox" checked={f.webhookEnabled} onChange={(e) => set('webhookEnabled', e.target.checked)} />
            Webhook notifications
          </label>
          <label>
            Webhook URL
            <input type="url" value={f.webhookUrl} onChange={(e) => set('webhookUrl', e.target.value)} placeholder="https://example.com/hook" />
          </label>
          <Secret
            label="Webhook signing secret"
            value={f.webhookSecret}
            onChange={(v) => set('webhookSecret', v)}
            masked={prefs.maskedWebhookSecret}
            onRemove={() => removeSecret('webhookSecret')}
            busy={save.isPending}
          />
          <Configured on={prefs.webhookConfigured} needs="a URL" />
        </fieldset>

        {save.error && <ErrorState error={save.error} />}
        {save.isSuccess && (
          <p className="state" role="status">
            Channels saved.
          </p>
        )}
        <button type="submit" disabled={save.isPending}>
          Save channels
        </button>
      </form>
    </section>
  );
}

/** A write-only token or secret: its mask when one is stored, a field to replace it, and Remove. */
function Secret(props: { label: string; value: string; onChange: (v: string) => void; masked: string | null; onRemove: () => void; busy: boolean }) {
  const hint = useId();
  return (
    <div className="prefs-secret">
      <label>
        {props.label}
        <input type="password" value={props.value} onChange={(e) => props.onChange(e.target.value)} autoComplete="off" aria-describedby={hint} />
      </label>
      <span id={hint} className="hint">
        {props.masked ? (
          <>
            Stored: <code className="prefs-mask">{props.masked}</code>. Leave empty to keep it.
          </>
        ) : (
          'None stored.'
        )}
      </span>
      {props.masked && (
        <button type="button" className="secondary" onClick={props.onRemove} disabled={props.busy} aria-label={`Remove the ${props.label.toLowerCase()}`}>
          Remove
        </button>
      )}
    </div>
  );
}

function Configured({ on, needs }: { on: boolean; needs: string }) {
  return <p className="muted">{on ? 'Configured.' : `Not configured: it needs ${needs} before it sends anything.`}</p>;
}

/** The caller's workspaces, each with its rule (or the global channels when it has none). */
function Rules({ prefs }: { prefs: NotificationPreferences }) {
  const workspaces = useQuery({ queryKey: ['workspaces'], queryFn: async () => must(await api.GET('/api/auth/organization/list')) });
  return (
    <section className="section" aria-labelledby="prefs-rules-h">
      <h2 id="prefs-rules-h">Workspaces</h2>
      <p className="muted">A workspace’s rule narrows the channels there: mute it, leave channels out, or hear only of some projects.</p>
      {workspaces.isPending && <Loading what="workspaces" />}
      {workspaces.error && <ErrorState error={workspaces.error} />}
      {workspaces.data?.length === 0 && <Empty>You are in no workspace.</Empty>}
      {workspaces.data?.map((w) => (
        <RuleForm key={w.id} workspace={w} prefs={prefs} rule={prefs.workspaces.find((r) => r.workspaceId === w.id) ?? null} />
      ))}
    </section>
  );
}

function RuleForm({ workspace, prefs, rule }: { workspace: Workspace; prefs: NotificationPreferences; rule: WorkspaceRule | null }) {
  const queryClient = useQueryClient();
  const id = useId();
  const projects = useProjects(workspace.id);
  // A new rule starts active, for all projects, each channel as it is globally (docs/notifications.md, "Workspace rules").
  const initial = (r: WorkspaceRule | null) => ({
    isActive: r?.isActive ?? true,
    // Only the boxes the user ticks or unticks: the others follow the rule, or the global channels as they are now.
    channels: {} as Partial<Record<Channel, boolean>>,
    projectMode: r?.projectMode ?? 'all',
    selected: new Set(r?.selectedProjectIds ?? []),
  });
  const [f, setF] = useState(() => initial(rule));
  const channelOn = (c: Channel) => f.channels[c] ?? (rule ? rule[`${c}Enabled`] : enabledOf(prefs, c));
  const save = useMutation({
    mutationFn: async (body: WorkspaceRuleBody) =>
      must(await api.PUT('/api/notification-preferences/workspaces/{workspaceId}', { params: { path: { workspaceId: workspace.id } }, body })),
    onSuccess: (p) => queryClient.setQueryData(PREFS_KEY, p),
  });
  const remove = useMutation({
    mutationFn: async () => must(await api.DELETE('/api/notification-preferences/workspaces/{workspaceId}', { params: { path: { workspaceId: workspace.id } } })),
    onSuccess: (p) => {
      queryClient.setQueryData(PREFS_KEY, p);
      setF(initial(null));
      save.reset();
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    remove.reset();
    // A channel off globally is not sent: the API refuses it on here until it is on there.
    const flags = Object.fromEntries(CHANNELS.filter((c) => enabledOf(prefs, c)).map((c) => [`${c}Enabled`, channelOn(c)]));
    save.mutate({ ...flags, isActive: f.isActive, projectMode: f.projectMode, selectedProjectIds: f.projectMode === 'selected' ? [...f.selected] : [] });
  };
  const toggleProject = (pid: string, on: boolean) =>
    setF((x) => {
      const selected = new Set(x.selected);
      if (on) selected.add(pid);
      else selected.delete(pid);
      return { ...x, selected };
    });
  return (
    <form className="stack narrow prefs-rule" onSubmit={onSubmit} aria-labelledby={`${id}-h`} data-workspace={workspace.id}>
      <h3 id={`${id}-h`}>{workspace.name}</h3>
      <p className="muted">{rule ? 'Your rule for this workspace:' : 'No rule: your channels above apply here. Save to make one.'}</p>
      <label className="check">
        <input type="checkbox" checked={f.isActive} onChange={(e) => setF((x) => ({ ...x, isActive: e.target.checked }))} />
        Notify me about this workspace
      </label>
      <fieldset>
        <legend>Channels here</legend>
        {CHANNELS.map((c) => (
          <label className="check" key={c}>
            <input
              type="checkbox"
              checked={enabledOf(prefs, c) && channelOn(c)}
              disabled={!enabledOf(prefs, c)}
              onChange={(e) => setF((x) => ({ ...x, channels: { ...x.channels, [c]: e.target.checked } }))}
            />
            {CHANNEL_NAMES[c]}
            {!enabledOf(prefs, c) && <span className="hint">(turn it on in Channels first)</span>}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Projects</legend>
        <label className="check">
          <input type="radio" name={`${id}-mode`} checked={f.projectMode === 'all'} onChange={() => setF((x) => ({ ...x, projectMode: 'all' }))} />
          All projects
        </label>
        <label className="check">
          <input type="radio" name={`${id}-mode`} checked={f.projectMode === 'selected'} onChange={() => setF((x) => ({ ...x, projectMode: 'selected' }))} />
          Selected projects
        </label>
        {f.projectMode === 'selected' && (
          <div className="prefs-projects">
            {projects.isPending && <Loading what="projects" />}
            {projects.error && <ErrorState error={projects.error} />}
            {projects.data?.length === 0 && <Empty>No projects in this workspace.</Empty>}
            {projects.data?.map((p) => (
              <label className="check" key={p.id}>
                <input type="checkbox" checked={f.selected.has(p.id)} onChange={(e) => toggleProject(p.id, e.target.checked)} />
                {p.name}
              </label>
            ))}
          </div>
        )}
      </fieldset>
      {save.error && <ErrorState error={save.error} />}
      {remove.error && <ErrorState error={remove.error} />}
      {save.isSuccess && (
        <p className="state" role="status">
          Rule saved.
        </p>
      )}
      <div className="actions">
        <button type="submit" disabled={save.isPending} aria-label={`Save rule for ${workspace.name}`}>
          Save rule
        </button>
        {rule && (
          <button type="button" className="secondary" onClick={() => remove.mutate()} disabled={remove.isPending} aria-label={`Remove rule for ${workspace.name}`}>
            Remove rule
          </button>
        )}
      </div>
    </form>
  );
}
