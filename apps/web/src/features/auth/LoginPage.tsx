import { LockOutlined, LoginOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Divider, Flex, Input, Segmented, theme } from 'antd';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Navigate, useNavigate } from 'react-router';
import { getConfig } from '../../api/config';
import { NETWORK_ERROR_CODE, isApiError } from '../../api/http';
import { LOGIN_TOAST_MS, clearToasts, toast } from '../../api/notify';
import { sessionStore } from '../../api/storage';
import { routeAfterSignIn } from '../../app/routeMemory';
import { LANGUAGES, updateSettings, useSettings, type Language } from '../../app/settings';
import bg from '../../assets/login-bg.svg';
import { LANGUAGE_NAMES } from '../../i18n';
import { isIdpCallback } from './oidcPaths';
import { signInLocal, signInWithIdentityProvider, type SignedIn } from './calls';
import { isSessionValid, loginErrorKey, signInRetryAfterSec } from './rules';
import { startSession, useAuthUser } from './session';

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

export function LoginPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const user = useAuthUser();
  const language = useSettings((s) => s.localization);
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<Record<Field, boolean>>({ user: false, password: false });
  const [busy, setBusy] = useState(false);
  const idpHandled = useRef(false);
  const config = getConfig();
  const idpConfigured = config.oidc.issuer !== '' && config.oidc.clientId !== '';

  const finish = (s: SignedIn, idpExpiresAtMs?: number) => {
    clearToasts();
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
    void (async () => {
      const oidc = await import('./oidc');
      setBusy(true);
      try {
        const token = await oidc.completeIdpLogin(getConfig());
        window.history.replaceState(null, '', window.location.pathname);
        finish(await signInWithIdentityProvider(token), token.expiresAtMs);
      } catch (e) {
        window.history.replaceState(null, '', window.location.pathname);
        toast('error', failureText(e, t), LOGIN_TOAST_MS);
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

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const next = { user: login.trim() === '', password: password === '' };
    setInvalid(next);
    if (next.user || next.password || busy) return;
    setBusy(true);
    try {
      finish(await signInLocal(login.trim(), password));
    } catch (err) {
      toast('error', failureText(err, t), LOGIN_TOAST_MS);
    } finally {
      setBusy(false);
    }
  };

  const idpLogin = async () => {
    if (!navigator.cookieEnabled) {
      toast('error', t('login.cookies_disabled'), LOGIN_TOAST_MS);
      return;
    }
    setBusy(true);
    try {
      const oidc = await import('./oidc');
      await oidc.startIdpLogin(getConfig());
    } catch {
      toast('error', t('login.server_error'), LOGIN_TOAST_MS);
      setBusy(false);
    }
  };

  const reset = (f: Field) => setInvalid((s) => (s[f] ? { ...s, [f]: false } : s));

  return (
    <div className="login-page" style={{ backgroundImage: `url("${bg}")` }}>
      {/* A plain panel rather than antd's Card keeps the card's tab machinery out of this page. */}
      <div
        className="login-card"
        style={{ background: token.colorBgContainer, borderRadius: token.borderRadiusLG, padding: 32 }}
      >
        <Segmented<Language>
          aria-label={t('common.language')}
          size="small"
          value={language}
          onChange={(v) => updateSettings({ localization: v })}
          options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
          style={{ marginBottom: 20 }}
        />
        {/* Plain headings: Typography would bring its tooltip machinery into the first load. */}
        <h1 style={{ margin: '0 0 4px', fontSize: 24, fontWeight: 600, color: token.colorText }}>
          {t('login.title')}
        </h1>
        <p style={{ margin: 0, color: token.colorTextSecondary }}>{t('login.subtitle')}</p>
        <form onSubmit={(e) => void submit(e)} noValidate style={{ marginTop: 24 }}>
          <Flex vertical gap={12}>
            <Input
              size="large"
              name="login"
              autoComplete="username"
              prefix={<UserOutlined />}
              placeholder={t('login.user')}
              aria-label={t('login.user')}
              aria-invalid={invalid.user}
              status={invalid.user ? 'error' : ''}
              value={login}
              onChange={(e) => setLogin(e.target.value)}
              onClick={() => reset('user')}
            />
            <Input.Password
              size="large"
              name="password"
              autoComplete="current-password"
              prefix={<LockOutlined />}
              placeholder={t('login.password')}
              aria-label={t('login.password')}
              aria-invalid={invalid.password}
              status={invalid.password ? 'error' : ''}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              onClick={() => reset('password')}
            />
            <Button
              type="primary"
              size="large"
              htmlType="submit"
              loading={busy}
              icon={<LoginOutlined />}
              block
            >
              {t('login.submit')}
            </Button>
          </Flex>
        </form>
        {idpConfigured && (
          <>
            <Divider plain>{t('login.or')}</Divider>
            <Button size="large" block disabled={busy} onClick={() => void idpLogin()}>
              {/\baccounts\.google\.com\b/.test(config.oidc.issuer)
                ? t('login.identity_provider')
                : t('login.identity_provider_generic')}
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
