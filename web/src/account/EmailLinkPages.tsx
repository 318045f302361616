import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError, must } from '../api/client';
import { ErrorState, Loading } from '../ui/States';
import { navigate, queryParam } from '../app/router';
import { useSession } from '../api/session';
import { useUserInvitations } from '../workspace/user-invitations';
import { t, tRich } from '../i18n';
import { roleName } from '../ui/format';

/** The pages the emails link to (docs/accounts.md "Emails"; docs/decisions-local.md "Email worker"). */

function AppLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <a
      href={to}
      onClick={(e) => {
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}

const noToken = () => new ApiError(400, t('account.emailLinkPages.noToken'));

/**
 * `/verify-email?token=`: spends the token once (GET /api/auth/verify-email). A first verification
 * ends every session of the user (docs/accounts.md, "When an address is proven"), so it asks for a
 * new sign-in.
 */
export function VerifyEmailPage() {
  const queryClient = useQueryClient();
  const [token] = useState(() => queryParam('token'));
  const verify = useQuery({
    queryKey: ['verify-email', token],
    enabled: !!token,
    // The token works once: never asked again (no refetch on focus or reconnect).
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    queryFn: async () => {
      const answer = must(await api.GET('/api/auth/verify-email', { params: { query: { token: token! } } }));
      await queryClient.invalidateQueries({ queryKey: ['session'] });
      return answer;
    },
  });
  // Back from the service's own verification link (sign-up's callbackURL): already done.
  const [verified] = useState(() => queryParam('verified') === '1');
  if (!token && verified) {
    return (
      <main id="main" tabIndex={-1} className="auth">
        <h1>{t('account.emailLinkPages.verifyYourEmail')}</h1>
        <p role="status">{tRich('account.emailLinkPages.verifiedSignIn', { link: (chunks) => <AppLink to="/sign-in">{chunks}</AppLink> })}</p>
      </main>
    );
  }
  return (
    <main id="main" tabIndex={-1} className="auth">
      <h1>{t('account.emailLinkPages.verifyYourEmail')}</h1>
      {!token && <ErrorState error={noToken()} />}
      {verify.isLoading && <Loading what={t('account.emailLinkPages.theVerification')} />}
      {verify.error && <ErrorState error={verify.error} />}
      {verify.data && (
        <p role="status">{tRich('account.emailLinkPages.emailVerifiedSignIn', { email: verify.data.user.email, link: (chunks) => <AppLink to="/sign-in">{chunks}</AppLink> })}</p>
      )}
    </main>
  );
}

/** `/reset-password?token=`: a new password with the emailed token (POST /api/auth/reset-password). */
export function ResetPasswordPage() {
  const queryClient = useQueryClient();
  const [token] = useState(() => queryParam('token'));
  const [newPassword, setNewPassword] = useState('');
  const [again, setAgain] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const reset = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/reset-password', { body: { token: token!, newPassword } })),
    // A reset ends every session (docs/accounts.md, "Password reset").
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['session'] }),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setMismatch(newPassword !== again);
    if (newPassword === again) reset.mutate();
  };
  return (
    <main id="main" tabIndex={-1} className="auth">
      <h1>{t('account.emailLinkPages.chooseANewPassword')}</h1>
      {!token && <ErrorState error={noToken()} />}
      {token && reset.isSuccess && <p role="status">{tRich('account.emailLinkPages.passwordChangedSignIn', { link: (chunks) => <AppLink to="/sign-in">{chunks}</AppLink> })}</p>}
      {token && !reset.isSuccess && (
        <form className="stack" onSubmit={onSubmit}>
          <label>
            {t('account.emailLinkPages.newPassword')}
            <input type="password" value={newPassword} onChange={(e) => setNewPassword(e.target.value)} required minLength={8} maxLength={128} autoComplete="new-password" />
          </label>
          <label>
            {t('account.emailLinkPages.newPasswordAgain')}
            <input type="password" value={again} onChange={(e) => setAgain(e.target.value)} required autoComplete="new-password" />
          </label>
          {mismatch && <ErrorState error={new Error(t('account.emailLinkPages.passwordsDiffer'))} />}
          {reset.error && <ErrorState error={reset.error} />}
          <button type="submit" disabled={reset.isPending}>
            {t('account.emailLinkPages.setPassword')}
          </button>
        </form>
      )}
    </main>
  );
}

/**
 * `/forgot-password`: asks for the reset email (POST /api/auth/request-password-reset), whose link
 * comes back to `/reset-password`. The answer is the same for any address (docs/accounts.md, "No
 * account enumeration"), and so is the page's.
 */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const request = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/request-password-reset', { body: { email } })),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    request.mutate();
  };
  return (
    <main id="main" tabIndex={-1} className="auth">
      <h1>{t('account.emailLinkPages.forgotYourPassword')}</h1>
      {request.isSuccess ? (
        <p role="status">{t('account.emailLinkPages.resetSent', { email })}</p>
      ) : (
        <form className="stack" onSubmit={onSubmit}>
          <label>
            {t('account.emailLinkPages.email')}
            <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="email" />
          </label>
          {request.error && <ErrorState error={request.error} />}
          <button type="submit" disabled={request.isPending}>
            {t('account.emailLinkPages.emailMeALink')}
          </button>
        </form>
      )}
      <p>
        <AppLink to="/sign-in">{t('account.emailLinkPages.backToSignIn')}</AppLink>
      </p>
    </main>
  );
}

/** `/invitation/accept/:id` (the invitation email's link): join or decline, signed in as the invited address. */
export function AcceptInvitationPage({ invitationId }: { invitationId: string }) {
  const queryClient = useQueryClient();
  const session = useSession();
  const accept = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/organization/accept-invitation', { body: { invitationId } })),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['workspaces'] }), queryClient.invalidateQueries({ queryKey: ['user-invitations'] })]),
  });
  const reject = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/organization/reject-invitation', { body: { invitationId } })),
  });
  // The invitation as its addressee lists it: names the workspace and the inviter.
  const invitations = useUserInvitations();
  const found = invitations.data?.find((i) => i.id === invitationId);
  const done = accept.isSuccess || reject.isSuccess;
  return (
    <main id="main" tabIndex={-1} className="auth">
      <h1>{found ? t('account.emailLinkPages.join', { organizationName: found.organizationName }) : t('account.emailLinkPages.workspaceInvitation')}</h1>
      {!done && (
        <>
          {invitations.verified && invitations.isPending && <Loading what={t('account.emailLinkPages.theInvitation')} />}
          {found && (
            <p>
              {tRich('account.emailLinkPages.invitedYou', {
                inviter: found.inviterName ?? t('account.emailLinkPages.someone'),
                workspace: found.organizationName,
                role: roleName(found.role),
                b: (chunks) => <strong>{chunks}</strong>,
              })}
            </p>
          )}
          {invitations.data && !found && (
            <p role="status">{tRich('account.emailLinkPages.notPending', { email: session.data?.user.email, b: (chunks) => <strong>{chunks}</strong> })}</p>
          )}
          {!invitations.verified && <p>{tRich('account.emailLinkPages.signedInAs', { email: session.data?.user.email, b: (chunks) => <strong>{chunks}</strong> })}</p>}
          {(accept.error ?? reject.error) && <ErrorState error={accept.error ?? reject.error} />}
          <div className="actions">
            <button type="button" onClick={() => accept.mutate()} disabled={accept.isPending || reject.isPending}>
              {t('account.emailLinkPages.joinTheWorkspace')}
            </button>
            <button type="button" className="secondary" onClick={() => reject.mutate()} disabled={accept.isPending || reject.isPending}>
              {t('account.emailLinkPages.decline')}
            </button>
          </div>
        </>
      )}
      {accept.data && (
        <p role="status">
          {t('account.emailLinkPages.joinedAs', { role: roleName(accept.data.member.role) })}{' '}
          <AppLink to={`/w/${accept.data.member.organizationId}`}>{t('account.emailLinkPages.openTheWorkspace')}</AppLink>
        </p>
      )}
      {reject.isSuccess && (
        <p role="status">
          {t('account.emailLinkPages.invitationDeclined')} <AppLink to="/">{t('account.emailLinkPages.backToYourWorkspaces')}</AppLink>
        </p>
      )}
    </main>
  );
}
