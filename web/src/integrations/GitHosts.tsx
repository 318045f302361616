import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import type { HostedgitIntegration, SelfgitIntegration } from '../api/types';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { ErrorState, Loading } from '../ui/States';
import { stateOf } from './NotifierCard';
import { t } from '../i18n';

function StateBadge({ record }: { record: { isActive: boolean } | null }) {
  const state = stateOf(record);
  return <span className={`badge ${state.replace(/ /g, '-')}`}>{state}</span>;
}

/** The link settings both hosts share and PATCH changes: active, branch pattern, the task-link comment (docs/git-hosts.md). */
function LinkOptions(props: {
  record: { isActive: boolean; branchPattern: string };
  comment: boolean;
  /** The task-link comment's label, naming the host's issue. */
  commentLabel: string;
  save: (body: { isActive?: boolean; branchPattern?: string; comment?: boolean }, done?: () => void) => void;
  pending: boolean;
}) {
  const [pattern, setPattern] = useState(props.record.branchPattern);
  // A box shows its change at once (set in the same event), and the stored value once the record is back.
  const [sending, setSending] = useState<{ isActive?: boolean; comment?: boolean } | null>(null);
  const send = (b: { isActive?: boolean; comment?: boolean }) => {
    setSending(b);
    props.save(b, () => setSending(null));
  };
  return (
    <div className="stack">
      <label className="check">
        <input type="checkbox" checked={sending?.isActive ?? props.record.isActive} disabled={props.pending} onChange={(e) => send({ isActive: e.target.checked })} />
        {t('integrations.gitHosts.active')}
      </label>
      <label className="check">
        <input type="checkbox" checked={sending?.comment ?? props.comment} disabled={props.pending} onChange={(e) => send({ comment: e.target.checked })} />
        {props.commentLabel}
      </label>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          props.save({ branchPattern: pattern });
        }}
      >
        <label>
          {t('integrations.gitHosts.branchPattern')}
          <input value={pattern} onChange={(e) => setPattern(e.target.value)} required maxLength={100} />
        </label>
        <button type="submit" disabled={props.pending || pattern === props.record.branchPattern}>
          {t('integrations.gitHosts.savePattern')}
        </button>
      </form>
    </div>
  );
}

/** The selfgit link: its settings, connecting (POST, checks the token), the options, the webhook secret's rotation, delete. */
export function SelfgitCard({ projectId, canManage }: { projectId: string; canManage: boolean }) {
  const queryClient = useQueryClient();
  const key = ['integration', projectId, 'selfgit'];
  const record = useQuery({ queryKey: key, queryFn: async () => must(await api.GET('/api/selfgit-integration/project/{projectId}', { params: { path: { projectId } } })) });
  const [connecting, setConnecting] = useState(false);
  const saved = (r: SelfgitIntegration | null) => {
    queryClient.setQueryData(key, r);
    setConnecting(false);
  };
  const patch = useMutation({
    mutationFn: async (b: { isActive?: boolean; branchPattern?: string; comment?: boolean }) =>
      must(
        await api.PATCH('/api/selfgit-integration/project/{projectId}', {
          params: { path: { projectId } },
          body: { isActive: b.isActive, branchPattern: b.branchPattern, commentTaskLinkOnSelfgitIssue: b.comment },
        }),
      ),
    onSuccess: saved,
  });
  const rotate = useMutation({
    mutationFn: async () => must(await api.POST('/api/selfgit-integration/project/{projectId}/rotate-webhook-secret', { params: { path: { projectId } } })),
    onSuccess: saved,
  });
  const remove = useMutation({
    mutationFn: async () => must(await api.DELETE('/api/selfgit-integration/project/{projectId}', { params: { path: { projectId } } })),
    onSuccess: () => saved(null),
  });
  const r = record.data;
  return (
    <section className="integration" aria-labelledby="int-selfgit" data-integration="selfgit">
      <div className="row">
        <h3 id="int-selfgit">{t('integrations.gitHosts.selfHostedGit')}</h3>
        {record.data !== undefined && <StateBadge record={record.data} />}
      </div>
      <p className="muted">{t('integrations.gitHosts.aGiteaStyleServerIts')}</p>
      {record.isPending && <Loading what={t('integrations.gitHosts.theSelfHostedGitSettings')} />}
      {record.error && <ErrorState error={record.error} />}
      {r && (
        <dl className="settings">
          <div>
            <dt>{t('integrations.gitHosts.server')}</dt>
            <dd>{r.baseUrl}</dd>
          </div>
          <div>
            <dt>{t('integrations.gitHosts.repository')}</dt>
            <dd>
              {r.repositoryOwner}/{r.repositoryName}
            </dd>
          </div>
          <div>
            <dt>{t('integrations.gitHosts.accessToken')}</dt>
            <dd>{r.maskedAccessToken}</dd>
          </div>
          <div>
            <dt>{t('integrations.gitHosts.branchPattern')}</dt>
            <dd>
              <code>{r.branchPattern}</code>
            </dd>
          </div>
          <div>
            <dt>{t('integrations.gitHosts.webhookUrl')}</dt>
            <dd>
              <code className="wrap">{r.webhookUrl}</code>
            </dd>
          </div>
          {r.webhookSecret && (
            <div>
              <dt>{t('integrations.gitHosts.webhookSecret')}</dt>
              <dd>
                <code className="wrap">{r.webhookSecret}</code>
              </dd>
            </div>
          )}
        </dl>
      )}
      {canManage && record.data !== undefined && (
        <>
          {r && (
            <>
              <LinkOptions
                record={r}
                comment={r.commentTaskLinkOnSelfgitIssue}
                commentLabel={t('integrations.gitHosts.commentOnServerIssue')}
                save={(b, done) => patch.mutate(b, { onSettled: done })}
                pending={patch.isPending}
              />
              <p className="hint">{t('integrations.gitHosts.afterARotationThePrevious')}</p>
              <div className="actions">
                <ConfirmDialog
                  className="secondary"
                  label={t('integrations.gitHosts.rotateWebhookSecret')}
                  title={t('integrations.gitHosts.makeANewWebhookSecret')}
                  confirmLabel={t('integrations.gitHosts.yesRotate')}
                  onConfirm={() => rotate.mutate()}
                  isDisabled={rotate.isPending}
                />
                {!connecting && (
                  <button type="button" className="secondary" onClick={() => setConnecting(true)}>
                    {t('integrations.gitHosts.connectAnotherRepository')}
                  </button>
                )}
                <ConfirmDialog
                  label={t('integrations.gitHosts.delete')}
                  title={t('integrations.gitHosts.deleteTheSelfHostedGit')}
                  confirmLabel={t('integrations.gitHosts.yesDelete')}
                  onConfirm={() => remove.mutate()}
                  isDisabled={remove.isPending}
                />
              </div>
            </>
          )}
          {[patch.error, rotate.error, remove.error].map((e, i) => e && <ErrorState key={i} error={e} />)}
          {(!r || connecting) && <SelfgitForm projectId={projectId} record={r ?? null} onSaved={saved} onCancel={r ? () => setConnecting(false) : null} />}
        </>
      )}
    </section>
  );
}

/** Connect (or replace) the selfgit link: the server checks the token can write issues before anything is stored. */
function SelfgitForm(props: { projectId: string; record: SelfgitIntegration | null; onSaved: (r: SelfgitIntegration) => void; onCancel: (() => void) | null }) {
  const r = props.record;
  const [baseUrl, setBaseUrl] = useState(r?.baseUrl ?? '');
  const [accessToken, setAccessToken] = useState('');
  const [owner, setOwner] = useState(r?.repositoryOwner ?? '');
  const [name, setName] = useState(r?.repositoryName ?? '');
  const save = useMutation({
    mutationFn: async () =>
      must(
        await api.POST('/api/selfgit-integration/project/{projectId}', {
          params: { path: { projectId: props.projectId } },
          body: {
            baseUrl,
            accessToken,
            repositoryOwner: owner,
            repositoryName: name,
            branchPattern: r?.branchPattern ?? '{slug}-{number}',
            commentTaskLinkOnSelfgitIssue: r?.commentTaskLinkOnSelfgitIssue ?? false,
          },
        }),
      ),
    onSuccess: props.onSaved,
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="stack settings-form" onSubmit={onSubmit} aria-label={t('integrations.gitHosts.selfHostedGitConnection')}>
      <label>
        {t('integrations.gitHosts.serverUrl')}
        <input type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} required placeholder={t('integrations.gitHosts.httpsGitExampleCom')} />
      </label>
      <label>
        {t('integrations.gitHosts.accessToken')}
        <input type="password" autoComplete="new-password" value={accessToken} onChange={(e) => setAccessToken(e.target.value)} required aria-describedby="selfgit-token-hint" />
        <span id="selfgit-token-hint" className="hint">
          {t('integrations.gitHosts.aTokenOfAUser')}
        </span>
      </label>
      <label>
        {t('integrations.gitHosts.repositoryOwner')}
        <input value={owner} onChange={(e) => setOwner(e.target.value)} required />
      </label>
      <label>
        {t('integrations.gitHosts.repositoryName')}
        <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      {save.error && <ErrorState error={save.error} />}
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? t('integrations.gitHosts.checkingTheToken') : t('integrations.gitHosts.connectRepository')}
        </button>
        {props.onCancel && (
          <button type="button" className="secondary" onClick={props.onCancel}>
            {t('integrations.gitHosts.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

/** The hostedgit link: its settings, and "Link repository", which starts the App's authorization (docs/git-hosts.md, "Linking proves control"). */
export function HostedgitCard({ projectId, canManage }: { projectId: string; canManage: boolean }) {
  const queryClient = useQueryClient();
  const key = ['integration', projectId, 'hostedgit'];
  const record = useQuery({ queryKey: key, queryFn: async () => must(await api.GET('/api/hostedgit-integration/project/{projectId}', { params: { path: { projectId } } })) });
  const saved = (r: HostedgitIntegration | null) => queryClient.setQueryData(key, r);
  const patch = useMutation({
    mutationFn: async (b: { isActive?: boolean; branchPattern?: string; comment?: boolean }) =>
      must(
        await api.PATCH('/api/hostedgit-integration/project/{projectId}', {
          params: { path: { projectId } },
          body: { isActive: b.isActive, branchPattern: b.branchPattern, commentTaskLinkOnHostedgitIssue: b.comment },
        }),
      ),
    onSuccess: saved,
  });
  const remove = useMutation({
    mutationFn: async () => must(await api.DELETE('/api/hostedgit-integration/project/{projectId}', { params: { path: { projectId } } })),
    onSuccess: () => saved(null),
  });
  const [owner, setOwner] = useState('');
  const [name, setName] = useState('');
  const authorize = useMutation({
    mutationFn: async () =>
      must(
        await api.POST('/api/hostedgit-integration/project/{projectId}/authorize', {
          params: { path: { projectId } },
          body: {
            repositoryOwner: owner,
            repositoryName: name,
            branchPattern: record.data?.branchPattern ?? '{slug}-{number}',
            commentTaskLinkOnHostedgitIssue: record.data?.commentTaskLinkOnHostedgitIssue ?? false,
            callbackURL: window.location.origin + window.location.pathname,
          },
        }),
      ),
    // The hosted service's page where the user authorizes the App; it sends the browser back here.
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const linked = new URLSearchParams(window.location.search);
  const r = record.data;
  return (
    <section className="integration" aria-labelledby="int-hostedgit" data-integration="hostedgit">
      <div className="row">
        <h3 id="int-hostedgit">{t('integrations.gitHosts.hostedGit')}</h3>
        {record.data !== undefined && <StateBadge record={record.data} />}
      </div>
      <p className="muted">{t('integrations.gitHosts.aRepositoryOnTheHosted')}</p>
      {linked.get('hostedgit') === 'linked' && <p role="status">{t('integrations.gitHosts.theRepositoryIsLinked')}</p>}
      {linked.get('hostedgit') === 'error' && (
        <p className="state error" role="alert">
          {linked.get('message') ?? t('integrations.gitHosts.theRepositoryCouldNotBe')}
        </p>
      )}
      {record.isPending && <Loading what={t('integrations.gitHosts.theHostedGitSettings')} />}
      {record.error && <ErrorState error={record.error} />}
      {r && (
        <dl className="settings">
          <div>
            <dt>{t('integrations.gitHosts.repository')}</dt>
            <dd>
              {r.repositoryOwner}/{r.repositoryName}
            </dd>
          </div>
          <div>
            <dt>{t('integrations.gitHosts.installation')}</dt>
            <dd>{r.installationId ?? '—'}</dd>
          </div>
          <div>
            <dt>{t('integrations.gitHosts.branchPattern')}</dt>
            <dd>
              <code>{r.branchPattern}</code>
            </dd>
          </div>
        </dl>
      )}
      {canManage && record.data !== undefined && (
        <>
          {r && (
            <>
              <LinkOptions
                record={r}
                comment={r.commentTaskLinkOnHostedgitIssue}
                commentLabel={t('integrations.gitHosts.commentOnHostedIssue')}
                save={(b, done) => patch.mutate(b, { onSettled: done })}
                pending={patch.isPending}
              />
              <div className="actions">
                <ConfirmDialog
                  label={t('integrations.gitHosts.delete')}
                  title={t('integrations.gitHosts.deleteTheHostedGitLink')}
                  confirmLabel={t('integrations.gitHosts.yesDelete')}
                  onConfirm={() => remove.mutate()}
                  isDisabled={remove.isPending}
                />
              </div>
            </>
          )}
          {[patch.error, remove.error].map((e, i) => e && <ErrorState key={i} error={e} />)}
          <form
            className="inline-form"
            aria-label={t('integrations.gitHosts.linkAHostedGitRepository')}
            onSubmit={(e) => {
              e.preventDefault();
              authorize.mutate();
            }}
          >
            <label>
              {t('integrations.gitHosts.owner')}
              <input value={owner} onChange={(e) => setOwner(e.target.value)} required placeholder={t('integrations.gitHosts.acme')} />
            </label>
            <label>
              {t('integrations.gitHosts.repository')}
              <input value={name} onChange={(e) => setName(e.target.value)} required placeholder={t('integrations.gitHosts.website')} />
            </label>
            <button type="submit" disabled={authorize.isPending}>
              {t('integrations.gitHosts.linkRepository')}
            </button>
          </form>
          {authorize.error && <ErrorState error={authorize.error} />}
        </>
      )}
    </section>
  );
}
