import { useEffect, useState, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../app/settings';
import { LANGUAGE_NAMES } from '../../i18n';
import { CloseIcon, ErrorIcon, EyeIcon, EyeInvisibleIcon, LoadingIcon } from './LoginIcons';

/**
 * The sign-in page's controls in plain React and CSS (LoginPage.css), so that the page does not
 * load the component library the signed-in shell uses.
 */

interface LanguageSwitchProps {
  value: Language;
  onChange: (lng: Language) => void;
}

/** Each language in its own words, as radio buttons (arrow keys move between them). */
export function LanguageSwitch({ value, onChange }: LanguageSwitchProps) {
  const { t } = useTranslation();
  return (
    <div className="login-languages" role="radiogroup" aria-label={t('common.language')}>
      {LANGUAGES.map((l) => (
        <label key={l} lang={l}>
          <input type="radio" name="language" value={l} checked={value === l} onChange={() => onChange(l)} />
          {LANGUAGE_NAMES[l]}
        </label>
      ))}
    </div>
  );
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'className' | 'size'> {
  ref?: Ref<HTMLInputElement>;
  icon: ReactNode;
  invalid: boolean;
  /** Shown after the input, inside its box (the password's show/hide switch). */
  suffix?: ReactNode;
}

/** A large input with its icon; labelled by its placeholder text. */
export function Field({ ref, icon, invalid, suffix, placeholder, ...input }: FieldProps) {
  return (
    <span className={invalid ? 'login-field login-field--invalid' : 'login-field'}>
      {icon}
      <input {...input} ref={ref} placeholder={placeholder} aria-label={placeholder} aria-invalid={invalid} />
      {suffix}
    </span>
  );
}

/** A password input with a switch that shows the typed text. */
export function PasswordField(props: Omit<FieldProps, 'type' | 'suffix'>) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <Field
      {...props}
      type={shown ? 'text' : 'password'}
      suffix={
        <button
          type="button"
          className="login-field__toggle"
          aria-label={shown ? t('login.hide_password') : t('login.show_password')}
          aria-pressed={shown}
          onClick={() => setShown((s) => !s)}
        >
          {shown ? <EyeIcon /> : <EyeInvisibleIcon />}
        </button>
      }
    />
  );
}

interface ButtonProps {
  children: ReactNode;
  primary?: boolean;
  type?: 'button' | 'submit';
  busy?: boolean;
  disabled?: boolean;
  icon?: ReactNode;
  onClick?: () => void;
}

/** A full-width large button; while busy its icon turns into a spinner and it does not react. */
export function Button({ children, primary, type = 'button', busy, disabled, icon, onClick }: ButtonProps) {
  const classes = ['login-button', primary ? 'login-button--primary' : '', busy ? 'login-button--busy' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <button
      type={type}
      className={classes}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      onClick={onClick}
    >
      {busy ? <LoadingIcon className="login-spin" /> : icon}
      <span>{children}</span>
    </button>
  );
}

export interface LoginNotice {
  text: string;
  /** Counts notices, so that the same text raised again is shown and announced again. */
  serial: number;
}

interface LoginToastProps {
  notice: LoginNotice | null;
  durationMs: number;
  onClose: () => void;
}

/** A failed sign-in, at the top right for a while; announced at once by screen readers. */
export function LoginToast({ notice, durationMs, onClose }: LoginToastProps) {
  const { t } = useTranslation();
  useEffect(() => {
    if (!notice) return;
    const timer = window.setTimeout(onClose, durationMs);
    return () => window.clearTimeout(timer);
  }, [notice, durationMs, onClose]);
  if (!notice) return null;
  return (
    <div key={notice.serial} className="login-toast" role="alert">
      <ErrorIcon className="login-toast__icon" />
      <span className="login-toast__text">{notice.text}</span>
      <button type="button" className="login-toast__close" aria-label={t('common.close')} onClick={onClose}>
        <CloseIcon />
      </button>
    </div>
  );
}
