import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import { ErrorState } from '../ui/States';
import { navigate, nextPath, withNext } from '../app/router';
import { t } from '../i18n';

/** Where the verification link sends the browser once done (a path: on CLIENT_URL, the app's address). */
export const VERIFIED_PAGE = '/verify-email?verified=1';

/** Sign in, or sign up, with email and password: the answer sets the session cookie. */
export function AuthPage({ mode }: { mode: 'sign-in' | 'sign-up' }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = useMutation({
    mutationFn: async () =>
      mode === 'sign-up'
        ? // The verification email's link comes back to the app's page once the address is proven.
          must(await api.POST('/api/auth/sign-up/email', { body: { name, email, password, callbackURL: VERIFIED_PAGE } }))
        : must(await api.POST('/api/auth/sign-in/email', { body: { email, password } })),
    // The app then goes on to the page that asked for the sign-in (App.tsx).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['session'] }),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit.mutate();
  };
  const signUp = mode === 'sign-up';
  // The OpenID button shows when the instance has a provider (GET /api/config).
  const config = useQuery({ queryKey: ['config'], staleTime: Infinity, queryFn: async () => must(await api.GET('/api/config')) });
  return (
    <main id="main" tabIndex={-1} className="auth">
      <h1>{signUp ? t('account.authPage.createYourAccount') : t('account.authPage.signInToTandem')}</h1>
      <form onSubmit={onSubmit} className="stack">
        {signUp && (
          <label>
            {t('account.authPage.name')}
            <input value={name} onChange={(e) => setName(e.target.value)} required autoComplete="name" />
          </label>
        )}
        <label>
          {t('account.authPage.email')}
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="email" />
        </label>
        <label>
          {t('account.authPage.password')}
          <input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            minLength={8}
            autoComplete={signUp ? 'new-password' : 'current-password'}
          />
        </label>
        {submit.error && <ErrorState error={submit.error} />}
        <button type="submit" disabled={submit.isPending}>
          {signUp ? t('account.authPage.signUp') : t('account.authPage.signIn')}
        </button>
      </form>
      {config.data?.hasCustomOAuth && (
        <p>
          {/* The service sends the browser to the provider and back here, with the session cookie set. */}
          <a className="button-link" href={`/api/auth/oauth2/authorize/custom?callbackURL=${encodeURIComponent(nextPath())}`}>
            {signUp ? t('account.authPage.signUpWithOpenid') : t('account.authPage.signInWithOpenid')}
          </a>
        </p>
      )}
      {!signUp && (
        <p>
          <a
            href="/forgot-password"
            onClick={(e) => {
              e.preventDefault();
              navigate('/forgot-password');
            }}
          >
            {t('account.authPage.forgotYourPassword')}
          </a>
        </p>
      )}
      <p>
        {signUp ? t('account.authPage.alreadyHaveAnAccount') : t('account.authPage.newHere')}
        <a
          href={withNext(signUp ? '/sign-in' : '/sign-up', nextPath())}
          onClick={(e) => {
            e.preventDefault();
            submit.reset();
            navigate(withNext(signUp ? '/sign-in' : '/sign-up', nextPath()));
          }}
        >
          {signUp ? t('account.authPage.signIn') : t('account.authPage.createAnAccount')}
        </a>
      </p>
    </main>
  );
}
