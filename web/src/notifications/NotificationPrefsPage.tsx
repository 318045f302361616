import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import type { NotificationPreferences, PreferencesBody, Workspace, WorkspaceRule, WorkspaceRuleBody } from '../api/types';
import { Header } from '../shell/Header';
import { Empty, ErrorState, Loading } from '../ui/States';
import { navigate } from '../app/router';
import { useProjects } from '../api/workspace-queries';
import { t } from '../i18n';

const PREFS_KEY = ['notification-preferences'];
const CHANNELS = ['email', 'topicpush', 'serverpush', 'webhook'] as const;
type Channel = (typeof CHANNELS)[number];
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
        <nav aria-label={t('integrations.notificationPrefsPage.account')}>
          <a
            href="/account"
            onClick={(e) => {
              e.preventDefault();
              navigate('/account');
            }}
          >
            {t('integrations.notificationPrefsPage.yourAccount')}
          </a>
        </nav>
        <h1>{t('integrations.notificationPrefsPage.notificationPreferences')}</h1>
        <p className="muted">{t('integrations.notificationPrefsPage.everyNotificationIsInThe')}</p>
        {prefs.isPending && <Loading what={t('integrations.notificationPrefsPage.yourPreferences')} />}
        {prefs.error && <ErrorState error={prefs.error} />}
        {prefs.data && (
          <>
            <Channels prefs={prefs.data} />
            <DueDates prefs={prefs.data} />
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
      <h2 id="prefs-channels-h">{t('integrations.notificationPrefsPage.channels')}</h2>
      <form className="stack narrow" onSubmit={onSubmit}>
        <fieldset className="prefs-channel">
          <legend>{t('integrations.notificationPrefsPage.email')}</legend>
          <label className="check">
            <input type="checkbox" checked={f.emailEnabled} onChange={(e) => set('emailEnabled', e.target.checked)} />
            {t('integrations.notificationPrefsPage.emailNotifications')}
          </label>
          <p className="muted">
            {t('integrations.notificationPrefsPage.to')} {prefs.emailAddress}.
          </p>
        </fieldset>

        <fieldset className="prefs-channel">
          <legend>{t('integrations.notificationPrefsPage.topicPush')}</legend>
          <label className="check">
            <input type="checkbox" checked={f.topicpushEnabled} onChange={(e) => set('topicpushEnabled', e.target.checked)} />
            {t('integrations.notificationPrefsPage.topicPushNotifications')}
          </label>
          <label>
            {t('integrations.notificationPrefsPage.topicPushServerUrl')}
            <input
              type="url"
              value={f.topicpushServerUrl}
              onChange={(e) => set('topicpushServerUrl', e.target.value)}
              placeholder={t('integrations.notificationPrefsPage.httpsNtfyExampleCom')}
            />
          </label>
          <label>
            {t('integrations.notificationPrefsPage.topic')}
            <input value={f.topicpushTopic} onChange={(e) => set('topicpushTopic', e.target.value)} maxLength={64} />
          </label>
          <Secret
            label={t('integrations.notificationPrefsPage.topicPushAccessToken')}
            value={f.topicpushToken}
            onChange={(v) => set('topicpushToken', v)}
            masked={prefs.maskedTopicpushToken}
            onRemove={() => removeSecret('topicpushToken')}
            busy={save.isPending}
          />
          <Configured on={prefs.topicpushConfigured} needs={t('integrations.notificationPrefsPage.aServerUrlAndA')} />
        </fieldset>

        <fieldset className="prefs-channel">
          <legend>{t('integrations.notificationPrefsPage.serverPush')}</legend>
          <label className="check">
            <input type="checkbox" checked={f.serverpushEnabled} onChange={(e) => set('serverpushEnabled', e.target.checked)} />
            {t('integrations.notificationPrefsPage.serverPushNotifications')}
          </label>
          <label>
            {t('integrations.notificationPrefsPage.serverPushServerUrl')}
            <input
              type="url"
              value={f.serverpushServerUrl}
              onChange={(e) => set('serverpushServerUrl', e.target.value)}
              placeholder={t('integrations.notificationPrefsPage.httpsGotifyExampleCom')}
            />
          </label>
          <Secret
            label={t('integrations.notificationPrefsPage.serverPushApplicationToken')}
            value={f.serverpushToken}
            onChange={(v) => set('serverpushToken', v)}
            masked={prefs.maskedServerpushToken}
            onRemove={() => removeSecret('serverpushToken')}
            busy={save.isPending}
          />
          <Configured on={prefs.serverpushConfigured} needs={t('integrations.notificationPrefsPage.aServerUrlAndA2')} />
        </fieldset>

        <fieldset className="prefs-channel">
          <legend>{t('integrations.notificationPrefsPage.webhook')}</legend>
          <label className="check">
            <input type="checkbox" checked={f.webhookEnabled} onChange={(e) => set('webhookEnabled', e.target.checked)} />
            {t('integrations.notificationPrefsPage.webhookNotifications')}
          </label>
          <label>
            {t('integrations.notificationPrefsPage.webhookUrl')}
            <input type="url" value={f.webhookUrl} onChange={(e) => set('webhookUrl', e.target.value)} placeholder={t('integrations.notificationPrefsPage.httpsExampleComHook')} />
          </label>
          <Secret
            label={t('integrations.notificationPrefsPage.webhookSigningSecret')}
            value={f.webhookSecret}
            onChange={(v) => set('webhookSecret', v)}
            masked={prefs.maskedWebhookSecret}
            onRemove={() => removeSecret('webhookSecret')}
            busy={save.isPending}
          />
          <Configured on={prefs.webhookConfigured} needs={t('integrations.notificationPrefsPage.aUrl')} />
        </fieldset>

        {save.error && <ErrorState error={save.error} />}
        {save.isSuccess && (
          <p className="state" role="status">
            {t('integrations.notificationPrefsPage.channelsSaved')}
          </p>
        )}
        <button type="submit" disabled={save.isPending}>
          {t('integrations.notificationPrefsPage.saveChannels')}
        </button>
      </form>
    </section>
  );
}

/** The lead times offered, in minutes: at the due time, then from 15 minutes to a week. */
const LEAD_TIMES = [0, 15, 60, 180, 1440, 2880, 10080];

/**
 * Due-date reminders (docs/notifications.md, "Due dates"): whether they come, and how long before
 * the due date. A lead time saved through the API that is not one of the choices is offered too.
 */
function DueDates({ prefs }: { prefs: NotificationPreferences }) {
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(prefs.dueDateReminderEnabled);
  const [lead, setLead] = useState(prefs.dueDateReminderLeadTimeMinutes);
  const leadId = useId();
  const save = useMutation({
    mutationFn: async (body: PreferencesBody) => must(await api.PUT('/api/notification-preferences', { body })),
    onSuccess: (p) => queryClient.setQueryData(PREFS_KEY, p),
  });
  const choices = LEAD_TIMES.includes(prefs.dueDateReminderLeadTimeMinutes) ? LEAD_TIMES : [...LEAD_TIMES, prefs.dueDateReminderLeadTimeMinutes].sort((a, b) => a - b);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ dueDateReminderEnabled: enabled, dueDateReminderLeadTimeMinutes: lead });
  };
  return (
    <section className="section" aria-labelledby="prefs-due-h">
      <h2 id="prefs-due-h">{t('integrations.notificationPrefsPage.dueDates')}</h2>
      <p className="muted">{t('integrations.notificationPrefsPage.dueDatesAbout')}</p>
      <form className="stack narrow" onSubmit={onSubmit}>
        <label className="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          {t('integrations.notificationPrefsPage.remindMe')}
        </label>
        <label htmlFor={leadId}>{t('integrations.notificationPrefsPage.remindBefore')}</label>
        <select id={leadId} value={lead} disabled={!enabled} onChange={(e) => setLead(Number(e.target.value))}>
          {choices.map((m) => (
            <option key={m} value={m}>
              {leadLabel(m)}
            </option>
          ))}
        </select>
        {save.error && <ErrorState error={save.error} />}
        {save.isSuccess && (
          <p className="state" role="status">
            {t('integrations.notificationPrefsPage.dueDatesSaved')}
          </p>
        )}
        <button type="submit" disabled={save.isPending}>
          {t('integrations.notificationPrefsPage.saveDueDates')}
        </button>
      </form>
    </section>
  );
}

/** `At the due time`, `15 minutes before`, `3 hours before`, `2 days before`, `1 week before`. */
function leadLabel(minutes: number): string {
  if (minutes === 0) return t('integrations.notificationPrefsPage.atTheDueTime');
  if (minutes % 10080 === 0) return t('integrations.notificationPrefsPage.weeksBefore', { count: minutes / 10080 });
  if (minutes % 1440 === 0) return t('integrations.notificationPrefsPage.daysBefore', { count: minutes / 1440 });
  if (minutes % 60 === 0) return t('integrations.notificationPrefsPage.hoursBefore', { count: minutes / 60 });
  return t('integrations.notificationPrefsPage.minutesBefore', { count: minutes });
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
            {t('integrations.notificationPrefsPage.stored')} <code className="prefs-mask">{props.masked}</code>
            {t('integrations.notificationPrefsPage.leaveEmptyToKeepIt')}
          </>
        ) : (
          t('integrations.notificationPrefsPage.noneStored')
        )}
      </span>
      {props.masked && (
        <button
          type="button"
          className="secondary"
          onClick={props.onRemove}
          disabled={props.busy}
          aria-label={t('integrations.notificationPrefsPage.removeThe', { value: props.label.toLowerCase() })}
        >
          {t('integrations.notificationPrefsPage.remove')}
        </button>
      )}
    </div>
  );
}

function Configured({ on, needs }: { on: boolean; needs: string }) {
  return <p className="muted">{on ? t('integrations.notificationPrefsPage.configured') : t('integrations.notificationPrefsPage.notConfiguredItNeedsBefore', { needs })}</p>;
}

/** The caller's workspaces, each with its rule (or the global channels when it has none). */
function Rules({ prefs }: { prefs: NotificationPreferences }) {
  const workspaces = useQuery({ queryKey: ['workspaces'], queryFn: async () => must(await api.GET('/api/auth/organization/list')) });
  return (
    <section className="section" aria-labelledby="prefs-rules-h">
      <h2 id="prefs-rules-h">{t('integrations.notificationPrefsPage.workspaces')}</h2>
      <p className="muted">{t('integrations.notificationPrefsPage.aWorkspaceSRuleNarrows')}</p>
      {workspaces.isPending && <Loading what={t('integrations.notificationPrefsPage.workspaces2')} />}
      {workspaces.error && <ErrorState error={workspaces.error} />}
      {workspaces.data?.length === 0 && <Empty>{t('integrations.notificationPrefsPage.youAreInNoWorkspace')}</Empty>}
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
      <p className="muted">{rule ? t('integrations.notificationPrefsPage.yourRuleForThisWorkspace') : t('integrations.notificationPrefsPage.noRuleYourChannelsAbove')}</p>
      <label className="check">
        <input type="checkbox" checked={f.isActive} onChange={(e) => setF((x) => ({ ...x, isActive: e.target.checked }))} />
        {t('integrations.notificationPrefsPage.notifyMeAboutThisWorkspace')}
      </label>
      <fieldset>
        <legend>{t('integrations.notificationPrefsPage.channelsHere')}</legend>
        {CHANNELS.map((c) => (
          <label className="check" key={c}>
            <input
              type="checkbox"
              checked={enabledOf(prefs, c) && channelOn(c)}
              disabled={!enabledOf(prefs, c)}
              onChange={(e) => setF((x) => ({ ...x, channels: { ...x.channels, [c]: e.target.checked } }))}
            />
            {t(`integrations.channel.${c}`)}
            {!enabledOf(prefs, c) && <span className="hint">{t('integrations.notificationPrefsPage.turnItOnInChannels')}</span>}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>{t('integrations.notificationPrefsPage.projects')}</legend>
        <label className="check">
          <input type="radio" name={`${id}-mode`} checked={f.projectMode === 'all'} onChange={() => setF((x) => ({ ...x, projectMode: 'all' }))} />
          {t('integrations.notificationPrefsPage.allProjects')}
        </label>
        <label className="check">
          <input type="radio" name={`${id}-mode`} checked={f.projectMode === 'selected'} onChange={() => setF((x) => ({ ...x, projectMode: 'selected' }))} />
          {t('integrations.notificationPrefsPage.selectedProjects')}
        </label>
        {f.projectMode === 'selected' && (
          <div className="prefs-projects">
            {projects.isPending && <Loading what={t('integrations.notificationPrefsPage.projects2')} />}
            {projects.error && <ErrorState error={projects.error} />}
            {projects.data?.length === 0 && <Empty>{t('integrations.notificationPrefsPage.noProjectsInThisWorkspace')}</Empty>}
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
          {t('integrations.notificationPrefsPage.ruleSaved')}
        </p>
      )}
      <div className="actions">
        <button type="submit" disabled={save.isPending} aria-label={t('integrations.notificationPrefsPage.saveRuleFor', { name: workspace.name })}>
          {t('integrations.notificationPrefsPage.saveRule')}
        </button>
        {rule && (
          <button
            type="button"
            className="secondary"
            onClick={() => remove.mutate()}
            disabled={remove.isPending}
            aria-label={t('integrations.notificationPrefsPage.removeRuleFor', { name: workspace.name })}
          >
            {t('integrations.notificationPrefsPage.removeRule')}
          </button>
        )}
      </div>
    </form>
  );
}
