import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { VERIFIED_PAGE } from './AuthPage';
import type { ApiKey, CreatedApiKey, Session, SessionItem } from '../api/types';
import { Header } from '../shell/Header';
import { Empty, ErrorState, Loading } from '../ui/States';
import { when } from '../ui/format';
import { navigate } from '../app/router';
import { chooseLanguage, LANGUAGES, t, useLanguage, type Language } from '../i18n';

/** The caller's account: profile, password, sessions and API keys (docs/accounts.md). */
export function AccountPage({ user }: { user: Session['user'] }) {
  return (
    <>
      <Header workspaceId={null} />
      <main id="main" tabIndex={-1} className="page account">
        <h1>{t('account.accountPage.yourAccount')}</h1>
        <p>
          <a
            href="/account/notifications"
            onClick={(e) => {
              e.preventDefault();
              navigate('/account/notifications');
            }}
          >
            {t('account.accountPage.notificationPreferences')}
          </a>{' '}
          <span className="muted">{t('account.accountPage.emailPushAndWebhookChannels')}</span>
        </p>
        <Profile user={user} />
        <LanguageChoice />
        <Password />
        <Sessions />
        <ApiKeys />
      </main>
    </>
  );
}

/** The app's language in this browser (docs/web.md, "Languages"): the browser's, or one chosen here. */
function LanguageChoice() {
  const { language, followsBrowser } = useLanguage();
  return (
    <section className="section" aria-labelledby="language-h">
      <h2 id="language-h">{t('account.language.heading')}</h2>
      <div className="stack narrow">
        <label>
          {t('account.language.label')}
          <select value={followsBrowser ? '' : language} onChange={(e) => void chooseLanguage(e.target.value ? (e.target.value as Language) : null)}>
            <option value="">{t('account.language.followBrowser')}</option>
            {LANGUAGES.map((l) => (
              <option key={l.code} value={l.code} lang={l.code}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <p className="muted">{t('account.language.about')}</p>
      </div>
    </section>
  );
}

function Profile({ user }: { user: Session['user'] }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(user.name);
  const [image, setImage] = useState(user.image ?? '');
  const save = useMutation({
    // An empty image field removes the image (docs/api.md, update-user).
    mutationFn: async () => must(await api.POST('/api/auth/update-user', { body: { name, image: image.trim() || null } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['session'] }),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <section className="section" aria-labelledby="profile-h">
      <h2 id="profile-h">{t('account.accountPage.profile')}</h2>
      <form className="stack narrow" onSubmit={onSubmit}>
        <p className="muted">{user.email}</p>
        {!user.emailVerified && <VerifyNotice email={user.email} />}
        <label>
          {t('account.accountPage.name')}
          <input value={name} onChange={(e) => setName(e.target.value)} required autoComplete="name" />
        </label>
        <label>
          {t('account.accountPage.imageUrl')}
          <input type="url" value={image} onChange={(e) => setImage(e.target.value)} placeholder={t('account.accountPage.https')} autoComplete="photo" />
        </label>
        {save.error && <ErrorState error={save.error} />}
        {save.isSuccess && (
          <p className="state" role="status">
            {t('account.accountPage.profileSaved')}
          </p>
        )}
        <button type="submit" disabled={save.isPending}>
          {t('account.accountPage.saveProfile')}
        </button>
      </form>
    </section>
  );
}

/**
 * An unverified address: until it is proven (and while the service sends mail) the user can make
 * no API key (docs/accounts.md, "When an address is proven"). The link comes back here.
 */
function VerifyNotice({ email }: { email: string }) {
  const send = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/send-verification-email', { body: { email, callbackURL: VERIFIED_PAGE } })),
  });
  return (
    <div className="notice">
      <p>{t('account.accountPage.yourEmailAddressIsNot')}</p>
      {send.error && <ErrorState error={send.error} />}
      {send.isSuccess ? (
        <p role="status">{t('account.accountPage.sentFollowTheLinkIn')}</p>
      ) : (
        <button type="button" className="secondary" onClick={() => send.mutate()} disabled={send.isPending}>
          {t('account.accountPage.sendAVerificationLink')}
        </button>
      )}
    </div>
  );
}

function Password() {
  const queryClient = useQueryClient();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [revokeOtherSessions, setRevoke] = useState(true);
  const change = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/change-password', { body: { currentPassword, newPassword, revokeOtherSessions } })),
    onSuccess: async () => {
      setCurrent('');
      setNew('');
      await queryClient.invalidateQueries({ queryKey: ['sessions'] });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate();
  };
  return (
    <section className="section" aria-labelledby="password-h">
      <h2 id="password-h">{t('account.accountPage.password')}</h2>
      <form className="stack narrow" onSubmit={onSubmit}>
        <label>
          {t('account.accountPage.currentPassword')}
          <input type="password" value={currentPassword} onChange={(e) => setCurrent(e.target.value)} required autoComplete="current-password" />
        </label>
        <label>
          {t('account.accountPage.newPassword')}
          <input type="password" value={newPassword} onChange={(e) => setNew(e.target.value)} required minLength={8} maxLength={128} autoComplete="new-password" />
        </label>
        <label className="check">
          <input type="checkbox" checked={revokeOtherSessions} onChange={(e) => setRevoke(e.target.checked)} />
          {t('account.accountPage.signOutMyOtherSessions')}
        </label>
        {change.error && <ErrorState error={change.error} />}
        {change.isSuccess && (
          <p className="state" role="status">
            {t('account.accountPage.passwordChanged')}
          </p>
        )}
        <button type="submit" disabled={change.isPending}>
          {t('account.accountPage.changePassword')}
        </button>
      </form>
    </section>
  );
}

function Sessions() {
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: ['sessions'], queryFn: async () => must(await api.GET('/api/auth/list-sessions')) });
  const revoke = useMutation({
    mutationFn: async (id: string) => must(await api.POST('/api/auth/revoke-session', { body: { id } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sessions'] }),
  });
  return (
    <section className="section" aria-labelledby="sessions-h">
      <h2 id="sessions-h">{t('account.accountPage.sessions')}</h2>
      {sessions.isPending && <Loading what={t('account.accountPage.sessions2')} />}
      {sessions.error && <ErrorState error={sessions.error} />}
      {sessions.data?.length === 0 && <Empty>{t('account.accountPage.noSessions')}</Empty>}
      {sessions.data && sessions.data.length > 0 && (
        <ul className="rows" aria-label={t('account.accountPage.sessions')}>
          {sessions.data.map((s) => (
            <SessionRow key={s.id} session={s} onRevoke={() => revoke.mutate(s.id)} busy={revoke.isPending && revoke.variables === s.id} />
          ))}
        </ul>
      )}
      {revoke.error && <ErrorState error={revoke.error} />}
    </section>
  );
}

function SessionRow({ session: s, onRevoke, busy }: { session: SessionItem; onRevoke: () => void; busy: boolean }) {
  const id = useId();
  return (
    <li className="row">
      <div id={id} className="row-main">
        <span className="ua" title={s.userAgent ?? undefined}>
          {s.userAgent ? s.userAgent.slice(0, 80) : t('account.accountPage.unknownClient')}
        </span>
        <span className="muted">
          {s.ipAddress ?? t('account.accountPage.unknownAddress')} {t('account.accountPage.signedIn')} {when(s.createdAt)}
        </span>
      </div>
      {s.current ? (
        <span className="badge">{t('account.accountPage.thisBrowser')}</span>
      ) : (
        <button type="button" className="secondary" onClick={onRevoke} disabled={busy} aria-describedby={id}>
          {t('account.accountPage.revoke')}
        </button>
      )}
    </li>
  );
}

/** Lifetimes offered for a new key, in seconds (the API takes 60 s to 10 years: docs/api.md, api-key/create). */
const EXPIRIES: [ExpiryName, number | null][] = [
  ['never', null],
  ['day', 86_400],
  ['week', 7 * 86_400],
  ['month', 30 * 86_400],
  ['quarter', 90 * 86_400],
  ['year', 365 * 86_400],
];
type ExpiryName = 'never' | 'day' | 'week' | 'month' | 'quarter' | 'year';

/**
 * The scopes a key can be limited to: the actions the user's roles grant in any of their
 * workspaces (GET /api/auth/organization/my-permissions lists every resource, docs/decisions-local.md
 * "Roles and permissions"); a key cannot do more than its user anyway.
 */
function useScopeChoices() {
  return useQuery({
    queryKey: ['scope-choices'],
    queryFn: async () => {
      const workspaces = must(await api.GET('/api/auth/organization/list'));
      const all = await Promise.all(
        workspaces.map(async (w) => must(await api.GET('/api/auth/organization/my-permissions', { params: { query: { organizationId: w.id } } })).permissions),
      );
      const union = new Map<string, Set<string>>();
      for (const table of all) {
        for (const [resource, actions] of Object.entries(table) as [string, readonly string[]][]) {
          const set = union.get(resource) ?? new Set<string>();
          for (const a of actions) set.add(a);
          union.set(resource, set);
        }
      }
      return [...union].filter(([, actions]) => actions.size > 0).map(([resource, actions]) => ({ resource, actions: [...actions] }));
    },
  });
}

function ApiKeys() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: async () => must(await api.GET('/api/auth/api-key/list')) });
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const remove = useMutation({
    mutationFn: async (keyId: string) => must(await api.POST('/api/auth/api-key/delete', { body: { keyId } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['api-keys'] }),
  });
  const nameOf = (id: string) => keys.data?.find((k) => k.id === id)?.name ?? id.slice(0, 8);
  return (
    <section className="section" aria-labelledby="keys-h">
      <h2 id="keys-h">{t('account.accountPage.apiKeys')}</h2>
      {created ? <NewKey created={created} onDone={() => setCreated(null)} /> : <CreateKey onCreated={setCreated} />}
      <h3>{t('account.accountPage.yourKeys')}</h3>
      {keys.isPending && <Loading what={t('account.accountPage.apiKeys')} />}
      {keys.error && <ErrorState error={keys.error} />}
      {keys.data?.length === 0 && <Empty>{t('account.accountPage.noApiKeysYet')}</Empty>}
      {keys.data && keys.data.length > 0 && (
        <ul className="rows" aria-label={t('account.accountPage.apiKeys')}>
          {keys.data.map((k) => (
            <KeyRow
              key={k.id}
              apiKey={k}
              parentName={k.parentKeyId ? nameOf(k.parentKeyId) : null}
              hasChildren={keys.data.some((c) => c.parentKeyId === k.id)}
              onDelete={() => remove.mutate(k.id)}
              busy={remove.isPending}
            />
          ))}
        </ul>
      )}
      {remove.error && <ErrorState error={remove.error} />}
    </section>
  );
}

function KeyRow(props: { apiKey: ApiKey; parentName: string | null; hasChildren: boolean; onDelete: () => void; busy: boolean }) {
  const k = props.apiKey;
  const label = k.name ?? t('account.accountPage.unnamedKey');
  const scopes = k.permissions ? Object.entries(k.permissions).flatMap(([r, actions]) => actions.map((a) => `${r}:${a}`)) : null;
  return (
    <li className="row" data-key-id={k.id}>
      <div className="row-main">
        <strong>{label}</strong>
        <span className="muted">
          <code>{k.start}…</code> {t('account.accountPage.created')} {when(k.createdAt)} ·{' '}
          {k.expiresAt ? t('account.accountPage.expires2', { when: when(k.expiresAt) }) : t('account.accountPage.neverExpires')}
          {props.parentName && t('account.accountPage.madeWith', { parentName: props.parentName })}
        </span>
        <span className="muted">{scopes ? t('account.accountPage.scopes3', { value: scopes.join(', ') }) : t('account.accountPage.allOfYourAccess')}</span>
      </div>
      <ConfirmDialog
        label={t('account.accountPage.delete')}
        ariaLabel={t('account.accountPage.delete2', { label })}
        title={t('account.accountPage.delete3', { label })}
        confirmLabel={t('account.accountPage.delete')}
        cancelLabel={t('account.accountPage.keep')}
        onConfirm={props.onDelete}
        isDisabled={props.busy}
        className="secondary"
      >
        {props.hasChildren && <p>{t('account.accountPage.keysMadeWithItStop')}</p>}
      </ConfirmDialog>
    </li>
  );
}

function CreateKey({ onCreated }: { onCreated: (k: CreatedApiKey) => void }) {
  const queryClient = useQueryClient();
  const choices = useScopeChoices();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('0');
  const expiryId = useId();
  const [scopes, setScopes] = useState<Set<string>>(new Set());
  const create = useMutation({
    mutationFn: async () => {
      const expiresIn = EXPIRIES[Number(expiry)]?.[1] ?? undefined;
      let permissions: Record<string, string[]> | undefined;
      if (scopes.size > 0) {
        permissions = {};
        for (const s of scopes) {
          const [resource, action] = s.split(':') as [string, string];
          (permissions[resource] ??= []).push(action);
        }
      }
      return must(await api.POST('/api/auth/api-key/create', { body: { name, expiresIn, permissions } }));
    },
    onSuccess: async (k) => {
      onCreated(k);
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  const toggle = (scope: string, on: boolean) =>
    setScopes((prev) => {
      const next = new Set(prev);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="stack" onSubmit={onSubmit} aria-labelledby="new-key-h">
      <h3 id="new-key-h">{t('account.accountPage.newApiKey')}</h3>
      <div className="inline-form tight">
        <label>
          {t('account.accountPage.keyName')}
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder={t('account.accountPage.ciDeploys')} />
        </label>
        <div className="field">
          <label htmlFor={expiryId}>{t('account.accountPage.expires')}</label>
          <select id={expiryId} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            {EXPIRIES.map(([label], i) => (
              <option key={label} value={i}>
                {label === 'never' ? t('account.accountPage.never') : t('account.accountPage.in', { label: t(`account.accountPage.expiry.${label}`) })}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="scopes">
        <legend>{t('account.accountPage.scopes')}</legend>
        <p className="muted">{t('account.accountPage.leaveEveryBoxEmptyFor')}</p>
        {choices.isPending && <Loading what={t('account.accountPage.scopes2')} />}
        {choices.error && <ErrorState error={choices.error} />}
        {choices.data?.length === 0 && <Empty>{t('account.accountPage.youHaveNoWorkspaceYet')}</Empty>}
        {choices.data?.map(({ resource, actions }) => (
          <div key={resource} className="scope-group" role="group" aria-label={resource}>
            <span className="scope-resource">{resource}</span>
            {actions.map((action) => {
              const scope = `${resource}:${action}`;
              return (
                <label key={scope} className="check">
                  <input type="checkbox" checked={scopes.has(scope)} onChange={(e) => toggle(scope, e.target.checked)} />
                  {scope}
                </label>
              );
            })}
          </div>
        ))}
      </fieldset>
      {create.error && <ErrorState error={create.error} />}
      <div>
        <button type="submit" disabled={create.isPending}>
          {t('account.accountPage.createKey')}
        </button>
      </div>
    </form>
  );
}

/** The key itself, shown once: the API keeps only its hash (docs/api.md, api-key/create). */
function NewKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div className="new-key" role="region" aria-labelledby="created-key-h">
      <h3 id="created-key-h">{t('account.accountPage.keyCreated', { name: created.name ?? t('account.accountPage.unnamedKey') })}</h3>
      <p className="warning">{t('account.accountPage.copyItNowItIs')}</p>
      <div className="inline-form tight">
        <label>
          {t('account.accountPage.yourNewApiKey')}
          <input readOnly value={created.key} onFocus={(e) => e.target.select()} className="mono" />
        </label>
        <button type="button" onClick={() => void copy()}>
          {t('account.accountPage.copy')}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          {t('account.accountPage.done')}
        </button>
      </div>
      <p role="status" className="state">
        {copied === 'yes' ? t('account.accountPage.copied') : copied === 'failed' ? t('account.accountPage.couldNotCopySelectThe') : ''}
      </p>
    </div>
  );
}
