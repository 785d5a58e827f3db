import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Navigate, useNavigate } from 'react-router';
import { getConfig } from '../../api/config';
import { NETWORK_ERROR_CODE, isApiError } from '../../api/http';
import { LOGIN_TOAST_MS, clearToasts } from '../../api/notify';
import { sessionStore } from '../../api/storage';
import { routeAfterSignIn } from '../../app/routeMemory';
import { updateSettings, useSettings } from '../../app/settings';
import bg from '../../assets/login-bg.svg';
import { LockIcon, LoginIcon, UserIcon } from './LoginIcons';
import { Button, Field, LanguageSwitch, LoginToast, PasswordField, type LoginNotice } from './LoginParts';
import { isIdpCallback } from './oidcPaths';
import { signInLocal, signInWithIdentityProvider, type SignedIn } from './calls';
import { isSessionValid, loginErrorKey, signInRetryAfterSec } from './rules';
import { startSession, useAuthUser } from './session';
import './LoginPage.css';

type Field = 'user' | 'password';

/**
 * Sign-in failures: an unreadable OK answer is the seed's process error, too many failures say
 * when to try again, the rest go by code.
 */
function failureText(e: unknown, t: TFunction): string {
  if (isApiError(e) && e.code === NETWORK_ERROR_CODE && e.httpStatus === 200) return t('login.process_error');
  const waitSec = isApiError(e) ? signInRetryAfterSec(e.code, e.retryAfterSec) : null;
  if (waitSec !== null) return t('login.too_many_attempts', { seconds: waitSec });
  return t(loginErrorKey(isApiError(e) ? e.code : undefined));
}

interface LoginPageProps {
  /** Starts fetching the signed-in shell, so that it is ready when the user is. */
  preloadShell: () => Promise<unknown>;
}

/**
 * The sign-in page, built without the component library: it is the first page most visits see,
 * and the shell's code is fetched while the user types (or once a session exists).
 */
export function LoginPage({ preloadShell }: LoginPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAuthUser();
  const language = useSettings((s) => s.localization);
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<Record<Field, boolean>>({ user: false, password: false });
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<LoginNotice | null>(null);
  const idpHandled = useRef(false);
  const loginInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const config = getConfig();
  const idpConfigured = config.oidc.issuer !== '' && config.oidc.clientId !== '';

  const showError = (text: string) => setNotice((n) => ({ text, serial: (n?.serial ?? 0) + 1 }));
  const closeNotice = useCallback(() => setNotice(null), []);
  // The shell's code is fetched once; a failed fetch is tried again when the shell is needed.
  const preload = () => void preloadShell().catch(() => undefined);

  const finish = (s: SignedIn, idpExpiresAtMs?: number) => {
    clearToasts();
    setNotice(null);
    startSession(s.user, s.devices);
    if (s.user.id === 2)
      sessionStore.set('renewal', { renew_count: 0, expiresAtMs: idpExpiresAtMs ?? s.user.expiration });
    void navigate(routeAfterSignIn(), { replace: true });
  };

  // Coming back from the identity provider: finish the code flow, then sign in to the portal.
  useEffect(() => {
    if (idpHandled.current) return;
    idpHandled.current = true;
    // The identity provider's code is fetched only when its redirect brought the browser here.
    if (!idpConfigured || !isIdpCallback(window.location.search)) return;
    preload();
    void (async () => {
      const oidc = await import('./oidc');
      setBusy(true);
      try {
        const token = await oidc.completeIdpLogin(getConfig());
        window.history.replaceState(null, '', window.location.pathname);
        finish(await signInWithIdentityProvider(token), token.expiresAtMs);
      } catch (e) {
        window.history.replaceState(null, '', window.location.pathname);
        showError(failureText(e, t));
      } finally {
        setBusy(false);
      }
    })();
    // Runs once on arrival; finish and t are stable enough for this single use.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    document.title = `${t('login.title')} · ${t('shell.brand')}`;
  }, [t, language]);

  if (isSessionValid(user, Date.now()) && !busy) return <Navigate to={routeAfterSignIn()} replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next = { user: login.trim() === '', password: password === '' };
    setInvalid(next);
    // Keyboard users land on the first empty field.
    if (next.user) loginInput.current?.focus();
    else if (next.password) passwordInput.current?.focus();
    if (next.user || next.password || busy) return;
    preload();
    setBusy(true);
    try {
      finish(await signInLocal(login.trim(), password));
    } catch (err) {
      showError(failureText(err, t));
    } finally {
      setBusy(false);
    }
  };

  const idpLogin = async () => {
    if (!navigator.cookieEnabled) {
      showError(t('login.cookies_disabled'));
      return;
    }
    setBusy(true);
    try {
      const oidc = await import('./oidc');
      await oidc.startIdpLogin(getConfig());
    } catch {
      showError(t('login.server_error'));
      setBusy(false);
    }
  };

  const reset = (f: Field) => setInvalid((s) => (s[f] ? { ...s, [f]: false } : s));

  return (
    <div className="login-page" style={{ backgroundImage: `url("${bg}")` }}>
      <main className="login-card">
        <LanguageSwitch value={language} onChange={(v) => updateSettings({ localization: v })} />
        <h1>{t('login.title')}</h1>
        <p className="login-card__subtitle">{t('login.subtitle')}</p>
        <form className="login-form" onSubmit={(e) => void submit(e)} onFocus={preload} noValidate>
          <Field
            ref={loginInput}
            name="login"
            autoComplete="username"
            icon={<UserIcon />}
            placeholder={t('login.user')}
            invalid={invalid.user}
            value={login}
            onChange={(e) => setLogin(e.target.value)}
            onClick={() => reset('user')}
          />
          <PasswordField
            ref={passwordInput}
            name="password"
            autoComplete="current-password"
            icon={<LockIcon />}
            placeholder={t('login.password')}
            invalid={invalid.password}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            onClick={() => reset('password')}
          />
          <Button primary type="submit" busy={busy} icon={<LoginIcon />}>
            {t('login.submit')}
          </Button>
        </form>
        {idpConfigured && (
          <>
            <div className="login-divider" role="separator">
              <span>{t('login.or')}</span>
            </div>
            <Button disabled={busy} onClick={() => void idpLogin()}>
              {/\baccounts\.google\.com\b/.test(config.oidc.issuer)
                ? t('login.identity_provider')
                : t('login.identity_provider_generic')}
            </Button>
          </>
        )}
      </main>
      <LoginToast notice={notice} durationMs={LOGIN_TOAST_MS} onClose={closeNotice} />
    </div>
  );
}
