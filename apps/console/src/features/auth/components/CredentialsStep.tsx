import { EyeInvisibleOutlined, EyeOutlined, LoadingOutlined, LockOutlined, MailOutlined } from '@ant-design/icons';
import { MSG } from '@forpost/contract/messages';
import { isEmail } from '@forpost/contract/validators';
import { useNavigate } from '@tanstack/react-router';
import { Alert, theme } from 'antd';
import { type CSSProperties, type FormEvent, type ReactNode, useState } from 'react';
import { feedback, loadFeedback } from '../../../lib/feedback';
import { internalTarget } from '../../../lib/navigation';
import { forgetLoginEmail, rememberedLoginEmail, rememberLoginEmail } from '../../../lib/session';
import { useLoginMutation } from '../api/mutations';
import { signInErrorText } from './shared';

interface Values {
  email: string;
  password: string;
}
type Errors = Partial<Record<keyof Values, string>>;
const ids: Record<keyof Values, string> = { email: 'login-email', password: 'login-password' };

/** The rules of the two fields (the same texts as the console's forms: MSG.required, MSG.email). */
function check(field: keyof Values, value: string): string | undefined {
  if (field === 'email') {
    if (value.trim() === '') return MSG.required;
    return isEmail(value.trim()) ? undefined : MSG.email;
  }
  return value === '' ? MSG.required : undefined;
}

/*
 * Step one: email + password → POST /auth/login. A plain form, not antd Form: the form engine and its
 * validator are ~18 KB of the sign-in page's 200 KB budget (issue #16) for two fields. And plain inputs
 * and buttons, not antd's: antd builds each component's CSS in JavaScript on its first render, and the
 * input's and the button's were the longest tasks of the sign-in page (≈ 40–60 ms each on a phone's
 * CPU, most of its Total Blocking Time — issue #30, item 15). Their look is the stylesheet the page's
 * HTML picture uses (loginShell.ts), coloured by the live theme's antd tokens (`credentialsVars`). The
 * other steps, loaded when reached, use antd Form.
 */
export function CredentialsStep({ redirect, onForgotPassword }: { redirect?: string; onForgotPassword: () => void }) {
  const navigate = useNavigate();
  const { message } = feedback;
  const login = useLoginMutation();
  const [values, setValues] = useState<Values>(() => ({ email: rememberedLoginEmail() ?? '', password: '' }));
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string | null>(null);

  const change = (field: keyof Values) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((x) => ({ ...x, [field]: check(field, value) }));
    if (error) setError(null);
  };

  /** What each input gets: its value, the check on change, the error state for the eye and for screen readers. */
  const bind = (field: keyof Values) => ({
    id: ids[field],
    value: values[field],
    onChange: change(field),
    'aria-required': true,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${ids[field]}-error` : undefined,
    disabled: login.isPending,
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: Errors = { email: check('email', values.email), password: check('password', values.password) };
    setErrors(found);
    if (found.email || found.password) {
      message.error(MSG.fillRequired);
      return;
    }
    setError(null);
    const email = values.email.trim();
    login.mutate(
      { email, password: values.password },
      {
        onSuccess: (res) => {
          if (res['2fa_success']) {
            forgetLoginEmail();
            void navigate({ href: internalTarget(redirect, (t) => message.warning(t)), replace: true });
          } else {
            rememberLoginEmail(email);
            void navigate({ to: '/login', search: { type: '2fa', redirect } });
          }
        },
        onError: (e) => setError(signInErrorText(e)),
      },
    );
  };

  return (
    // The toasts' code is not part of the sign-in page's first download: it loads once the user acts
    // on the form — a key or a pointer, not the focus the page itself puts into the email field
    // (lib/feedback). It comes with the signed-in shell's chunk, which the user needs next anyway.
    <form noValidate onSubmit={submit} onKeyDown={loadFeedback} onPointerDown={loadFeedback} style={useCredentialsVars()}>
      <Field id={ids.email} label="Email" error={errors.email}>
        <Control disabled={login.isPending}>
          <MailOutlined />
          {/* biome-ignore lint/a11y/noAutofocus: the sign-in page's one task; antd's Input had it too */}
          <input {...bind('email')} type="text" autoComplete="username" inputMode="email" autoFocus />
        </Control>
      </Field>
      <Field id={ids.password} label="Пароль" error={errors.password}>
        <PasswordControl disabled={login.isPending}>
          {(visible) => <input {...bind('password')} type={visible ? 'text' : 'password'} autoComplete="current-password" />}
        </PasswordControl>
      </Field>
      <button type="submit" className="fpls-submit" disabled={login.isPending} aria-busy={login.isPending || undefined}>
        {login.isPending && <LoadingOutlined spin />}
        <span>Войти</span>
      </button>
      <div className="fpls-forgot">
        <button type="button" onClick={onForgotPassword} disabled={login.isPending}>
          Забыли пароль?
        </button>
      </div>
      {error && <Alert type="error" showIcon title={error} data-testid="login-error" style={{ marginTop: 8 }} />}
    </form>
  );
}

/** The stylesheet's variables (loginShell.ts) from the live theme: light or dark, as the console is. */
function useCredentialsVars(): CSSProperties {
  const { token } = theme.useToken();
  return {
    '--box': token.colorBgContainer,
    '--text': token.colorText,
    '--muted': token.colorIcon,
    '--icon-hover': token.colorIconHover,
    '--field-line': token.colorBorder,
    '--primary': token.colorPrimary,
    '--primary-hover': token.colorPrimaryHover,
    '--primary-active': token.colorPrimaryActive,
    '--primary-shadow': token.controlTmpOutline,
    '--outline': token.controlOutline,
    '--focus': token.colorPrimaryBorder,
    '--error': token.colorError,
    '--error-hover': token.colorErrorBorderHover,
    '--error-outline': token.colorErrorOutline,
    '--off-bg': token.colorBgContainerDisabled,
    '--off': token.colorTextDisabled,
    '--link': token.colorLink,
    '--link-hover': token.colorLinkHover,
  } as CSSProperties;
}

/** A large input's frame: the prefix icon, the input, a suffix; a click on the frame focuses the input. */
function Control({ disabled, children }: { disabled: boolean; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a pointer convenience; the input itself takes the keyboard
    // biome-ignore lint/a11y/useKeyWithClickEvents: as above
    <span
      className={disabled ? 'fpls-input fpls-off' : 'fpls-input'}
      onClick={(e) => {
        if (e.target === e.currentTarget) e.currentTarget.querySelector('input')?.focus();
      }}
    >
      {children}
    </span>
  );
}

/** The password's frame with the eye that shows and hides it (a pointer's, like antd's; not a tab stop). */
function PasswordControl({ disabled, children }: { disabled: boolean; children: (visible: boolean) => ReactNode }) {
  const [visible, setVisible] = useState(false);
  return (
    <Control disabled={disabled}>
      <LockOutlined />
      {children(visible)}
      <button
        type="button"
        className="fpls-eye"
        tabIndex={-1}
        disabled={disabled}
        aria-label={visible ? 'Скрыть пароль' : 'Показать пароль'}
        aria-pressed={visible}
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => setVisible((v) => !v)}
      >
        {visible ? <EyeOutlined /> : <EyeInvisibleOutlined />}
      </button>
    </Control>
  );
}

/** A labelled field with its message below, laid out as antd's vertical Form.Item. */
function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className={error ? 'fpls-field fpls-bad' : 'fpls-field'}>
      <label htmlFor={id} className="fpls-label">
        {label}
      </label>
      {children}
      {error && (
        <div id={`${id}-error`} role="alert" className="fpls-err">
          {error}
        </div>
      )}
    </div>
  );
}
