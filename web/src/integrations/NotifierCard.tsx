import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { IntegrationEvents } from '../api/types';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { ErrorState, Loading } from '../ui/States';
import { DeliveryLog } from './DeliveryLog';
import { EVENT_KEYS, eventLabel, removeSigningSecret, type FormValues, type Notifier, type NotifierRecord } from './notifiers';
import { t } from '../i18n';

/** The defaults of a new integration's events (docs/integrations.md, "Events selection"). */
const DEFAULT_EVENTS: IntegrationEvents = {
  taskCreated: true,
  taskStatusChanged: true,
  taskPriorityChanged: false,
  taskTitleChanged: false,
  taskDescriptionChanged: false,
  taskCommentCreated: true,
  taskDeleted: false,
  taskMoved: false,
  taskDueDateChanged: false,
  taskAssigneeChanged: false,
  dueDateReminder: false,
};

export function stateOf(record: { isActive: boolean } | null | undefined): 'not set up' | 'active' | 'inactive' {
  return !record ? 'not set up' : record.isActive ? 'active' : 'inactive';
}

/** One notifying integration: its state and settings, the form (for those who manage settings), and its delivery log. */
export function NotifierCard({ notifier, projectId, canManage }: { notifier: Notifier; projectId: string; canManage: boolean }) {
  const queryClient = useQueryClient();
  const key = ['integration', projectId, notifier.kind];
  const record = useQuery({ queryKey: key, queryFn: () => notifier.get(projectId) });
  const [editing, setEditing] = useState(false);
  const onSaved = (r: NotifierRecord | null) => {
    queryClient.setQueryData(key, r);
    setEditing(false);
  };
  const toggle = useMutation({ mutationFn: (isActive: boolean) => notifier.update(projectId, { values: {}, isActive }), onSuccess: onSaved });
  // The box shows the change at once (set in the same event), and the stored value once the answer came.
  const [activeSent, setActiveSent] = useState<boolean | null>(null);
  const setActive = (isActive: boolean) => {
    setActiveSent(isActive);
    toggle.mutate(isActive, { onSettled: () => setActiveSent(null) });
  };
  const remove = useMutation({ mutationFn: () => notifier.remove(projectId), onSuccess: () => onSaved(null) });
  const dropSecret = useMutation({ mutationFn: () => removeSigningSecret(projectId), onSuccess: onSaved });
  const headingId = `int-${notifier.kind}`;
  const r = record.data;
  const state = stateOf(r);

  return (
    <section className="integration" aria-labelledby={headingId} data-integration={notifier.kind}>
      <div className="row">
        <h3 id={headingId}>{notifier.title}</h3>
        {!record.isPending && !record.error && <span className={`badge ${state.replace(/ /g, '-')}`}>{state}</span>}
      </div>
      <p className="muted">{notifier.about}</p>
      {record.isPending && <Loading what={t('integrations.notifierCard.theSettings', { integration: notifier.title })} />}
      {record.error && <ErrorState error={record.error} />}
      {r && (
        <dl className="settings">
          {notifier.fields.map((f) => (
            <div key={f.key}>
              <dt>{f.label}</dt>
              <dd>{notifier.shown(r, f.key) ?? <span className="muted">{t('integrations.notifierCard.none')}</span>}</dd>
            </div>
          ))}
          <div>
            <dt>{t('integrations.notifierCard.events')}</dt>
            <dd>
              {EVENT_KEYS.filter((k) => r.events[k])
                .map((k) => eventLabel(k))
                .join(', ') || <span className="muted">{t('integrations.notifierCard.none')}</span>}
            </dd>
          </div>
        </dl>
      )}
      {canManage && record.data !== undefined && (
        <>
          {r && (
            <div className="actions">
              <label className="check">
                <input type="checkbox" checked={activeSent ?? r.isActive} disabled={toggle.isPending} onChange={(e) => setActive(e.target.checked)} />
                {t('integrations.notifierCard.active')}
              </label>
              {!editing && (
                <button type="button" className="secondary" onClick={() => setEditing(true)}>
                  {t('integrations.notifierCard.changeSettings')}
                </button>
              )}
              {notifier.kind === 'generic-webhook' && notifier.shown(r, 'secret') !== null && (
                <ConfirmDialog
                  label={t('integrations.notifierCard.removeSigningSecret')}
                  title={t('integrations.notifierCard.stopSigningDeliveriesNow')}
                  confirmLabel={t('integrations.notifierCard.yesRemoveTheSecret')}
                  onConfirm={() => dropSecret.mutate()}
                  isDisabled={dropSecret.isPending}
                />
              )}
              <ConfirmDialog
                label={t('integrations.notifierCard.delete')}
                title={t('integrations.notifierCard.deleteTheIntegration', { integration: notifier.title })}
                confirmLabel={t('integrations.notifierCard.yesDelete')}
                onConfirm={() => remove.mutate()}
                isDisabled={remove.isPending}
              />
            </div>
          )}
          {[toggle.error, remove.error, dropSecret.error].map((e, i) => e && <ErrorState key={i} error={e} />)}
          {(!r || editing) && (
            <SettingsForm
              key={r?.updatedAt ?? 'new'}
              notifier={notifier}
              projectId={projectId}
              record={r ?? null}
              onSaved={onSaved}
              onCancel={r ? () => setEditing(false) : null}
            />
          )}
          {r && <DeliveryLog notifier={notifier} projectId={projectId} />}
        </>
      )}
      {!canManage && r && <p className="muted">{t('integrations.notifierCard.changingTheseSettingsAndThe')}</p>}
    </section>
  );
}

/** Set up (POST) or change (PATCH) an integration. Secrets are write-only: the form shows the mask, and an empty secret keeps the stored one. */
function SettingsForm(props: { notifier: Notifier; projectId: string; record: NotifierRecord | null; onSaved: (r: NotifierRecord) => void; onCancel: (() => void) | null }) {
  const { notifier, record } = props;
  const id = useId();
  const [values, setValues] = useState<FormValues>(() => Object.fromEntries(notifier.fields.map((f) => [f.key, record && !f.secret ? (notifier.shown(record, f.key) ?? '') : ''])));
  const [events, setEvents] = useState<IntegrationEvents>(record?.events ?? DEFAULT_EVENTS);
  const save = useMutation({
    mutationFn: () => (record ? notifier.update(props.projectId, { values, events }) : notifier.create(props.projectId, { values, events })),
    onSuccess: props.onSaved,
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="stack settings-form" onSubmit={onSubmit} aria-label={t('integrations.notifierCard.settings', { integration: notifier.title })}>
      {notifier.fields.map((f) => {
        const mask = record && f.secret ? notifier.shown(record, f.key) : null;
        const hintId = `${id}-${f.key}-hint`;
        const hint = [mask ? t('integrations.notifierCard.nowMasked', { mask }) : null, f.hint].filter(Boolean).join(' ');
        return (
          <label key={f.key}>
            {f.label}
            {f.required && !record ? t('integrations.notifierCard.required') : ''}
            <input
              type={f.secret ? 'password' : f.number ? 'number' : 'text'}
              inputMode={f.number ? 'numeric' : undefined}
              autoComplete={f.secret ? 'new-password' : 'off'}
              value={values[f.key] ?? ''}
              placeholder={mask ?? ''}
              required={!!f.required && (!record || !f.secret)}
              aria-describedby={hint ? hintId : undefined}
              onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
            />
            {hint && (
              <span id={hintId} className="hint">
                {hint}
              </span>
            )}
          </label>
        );
      })}
      <fieldset>
        <legend>{t('integrations.notifierCard.eventsToSend')}</legend>
        {EVENT_KEYS.map((k) => (
          <label key={k} className="check">
            <input type="checkbox" checked={events[k]} onChange={(e) => setEvents((ev) => ({ ...ev, [k]: e.target.checked }))} />
            {eventLabel(k)}
          </label>
        ))}
      </fieldset>
      {save.error && <ErrorState error={save.error} />}
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          {record ? t('integrations.notifierCard.saveChanges') : t('integrations.notifierCard.setUp', { integration: notifier.title })}
        </button>
        {props.onCancel && (
          <button type="button" className="secondary" onClick={props.onCancel}>
            {t('integrations.notifierCard.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
