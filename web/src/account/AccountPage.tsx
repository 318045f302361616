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

/** The caller's account: profile, password, sessions and API keys (docs/accounts.md). */
export function AccountPage({ user }: { user: Session['user'] }) {
  return (
    <>
      <Header workspaceId={null} />
      <main id="main" tabIndex={-1} className="page account">
        <h1>Your account</h1>
        <p>
          <a
            href="/account/notifications"
            onClick={(e) => {
              e.preventDefault();
              navigate('/account/notifications');
            }}
          >
            Notification preferences
          </a>{' '}
          <span className="muted">(email, push and webhook channels, and a rule per workspace)</span>
        </p>
        <Profile user={user} />
        <Password />
        <Sessions />
        <ApiKeys />
      </main>
    </>
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
      <h2 id="profile-h">Profile</h2>
      <form className="stack narrow" onSubmit={onSubmit}>
        <p className="muted">{user.email}</p>
        {!user.emailVerified && <VerifyNotice email={user.email} />}
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required autoComplete="name" />
        </label>
        <label>
          Image URL
          <input type="url" value={image} onChange={(e) => setImage(e.target.value)} placeholder="https://…" autoComplete="photo" />
        </label>
        {save.error && <ErrorState error={save.error} />}
        {save.isSuccess && (
          <p className="state" role="status">
            Profile saved.
          </p>
        )}
        <button type="submit" disabled={save.isPending}>
          Save profile
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
      <p>Your email address is not verified yet.</p>
      {send.error && <ErrorState error={send.error} />}
      {send.isSuccess ? (
        <p role="status">Sent: follow the link in the email (it works for 24 hours), then sign in again.</p>
      ) : (
        <button type="button" className="secondary" onClick={() => send.mutate()} disabled={send.isPending}>
          Send a verification link
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
      <h2 id="password-h">Password</h2>
      <form className="stack narrow" onSubmit={onSubmit}>
        <label>
          Current password
          <input type="password" value={currentPassword} onChange={(e) => setCurrent(e.target.value)} required autoComplete="current-password" />
        </label>
        <label>
          New password
          <input type="password" value={newPassword} onChange={(e) => setNew(e.target.value)} required minLength={8} maxLength={128} autoComplete="new-password" />
        </label>
        <label className="check">
          <input type="checkbox" checked={revokeOtherSessions} onChange={(e) => setRevoke(e.target.checked)} />
          Sign out my other sessions
        </label>
        {change.error && <ErrorState error={change.error} />}
        {change.isSuccess && (
          <p className="state" role="status">
            Password changed.
          </p>
        )}
        <button type="submit" disabled={change.isPending}>
          Change password
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
      <h2 id="sessions-h">Sessions</h2>
      {sessions.isPending && <Loading what="sessions" />}
      {sessions.error && <ErrorState error={sessions.error} />}
      {sessions.data?.length === 0 && <Empty>No sessions.</Empty>}
      {sessions.data && sessions.data.length > 0 && (
        <ul className="rows" aria-label="Sessions">
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
          {s.userAgent ? s.userAgent.slice(0, 80) : 'Unknown client'}
        </span>
        <span className="muted">
          {s.ipAddress ?? 'unknown address'} · signed in {when(s.createdAt)}
        </span>
      </div>
      {s.current ? (
        <span className="badge">This browser</span>
      ) : (
        <button type="button" className="secondary" onClick={onRevoke} disabled={busy} aria-describedby={id}>
          Revoke
        </button>
      )}
    </li>
  );
}

/** Lifetimes offered for a new key, in seconds (the API takes 60 s to 10 years: docs/api.md, api-key/create). */
const EXPIRIES: [string, number | null][] = [
  ['Never', null],
  ['1 day', 86_400],
  ['7 days', 7 * 86_400],
  ['30 days', 30 * 86_400],
  ['90 days', 90 * 86_400],
  ['1 year', 365 * 86_400],
];

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
      <h2 id="keys-h">API keys</h2>
      {created ? <NewKey created={created} onDone={() => setCreated(null)} /> : <CreateKey onCreated={setCreated} />}
      <h3>Your keys</h3>
      {keys.isPending && <Loading what="API keys" />}
      {keys.error && <ErrorState error={keys.error} />}
      {keys.data?.length === 0 && <Empty>No API keys yet.</Empty>}
      {keys.data && keys.data.length > 0 && (
        <ul className="rows" aria-label="API keys">
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
  const label = k.name ?? 'Unnamed key';
  const scopes = k.permissions ? Object.entries(k.permissions).flatMap(([r, actions]) => actions.map((a) => `${r}:${a}`)) : null;
  return (
    <li className="row" data-key-id={k.id}>
      <div className="row-main">
        <strong>{label}</strong>
        <span className="muted">
          <code>{k.start}…</code> · created {when(k.createdAt)} · {k.expiresAt ? `expires ${when(k.expiresAt)}` : 'never expires'}
          {props.parentName && ` · made with ${props.parentName}`}
        </span>
        <span className="muted">{scopes ? `Scopes: ${scopes.join(', ')}` : 'All of your access'}</span>
      </div>
      <ConfirmDialog
        label="Delete"
        ariaLabel={`Delete ${label}`}
        title={`Delete ${label}?`}
        confirmLabel="Delete"
        cancelLabel="Keep"
        onConfirm={props.onDelete}
        isDisabled={props.busy}
        className="secondary"
      >
        {props.hasChildren && <p>Keys made with it stop too.</p>}
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
      <h3 id="new-key-h">New API key</h3>
      <div className="inline-form tight">
        <label>
          Key name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder="CI deploys" />
        </label>
        <div className="field">
          <label htmlFor={expiryId}>Expires</label>
          <select id={expiryId} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            {EXPIRIES.map(([label], i) => (
              <option key={label} value={i}>
                {label === 'Never' ? 'Never' : `In ${label}`}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="scopes">
        <legend>Scopes</legend>
        <p className="muted">Leave every box empty for a key with all of your access; tick some to limit the key to them.</p>
        {choices.isPending && <Loading what="scopes" />}
        {choices.error && <ErrorState error={choices.error} />}
        {choices.data?.length === 0 && <Empty>You have no workspace yet: the key can only be unscoped.</Empty>}
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
          Create key
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
      <h3 id="created-key-h">Key “{created.name ?? 'Unnamed key'}” created</h3>
      <p className="warning">Copy it now: it is shown only this once and cannot be seen again.</p>
      <div className="inline-form tight">
        <label>
          Your new API key
          <input readOnly value={created.key} onFocus={(e) => e.target.select()} className="mono" />
        </label>
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
      <p role="status" className="state">
        {copied === 'yes' ? 'Copied.' : copied === 'failed' ? 'Could not copy: select the key and copy it yourself.' : ''}
      </p>
    </div>
  );
}
