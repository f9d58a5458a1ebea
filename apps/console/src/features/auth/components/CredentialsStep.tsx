import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { MSG } from '@forpost/contract/messages';
import { isEmail } from '@forpost/contract/validators';
import { useNavigate } from '@tanstack/react-router';
import { Alert, Button, Input, theme } from 'antd';
import { type FormEvent, type ReactNode, useState } from 'react';
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
 * Step one: email + password → POST /auth/login. A plain form with antd inputs rather than antd Form:
 * the form engine and its validator are ~18 KB of the sign-in page's 200 KB budget (issue #16) for two
 * fields; the other steps, loaded when reached, use antd Form.
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
    status: errors[field] ? ('error' as const) : undefined,
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
    <form noValidate onSubmit={submit} onKeyDown={loadFeedback} onPointerDown={loadFeedback}>
      <Field id={ids.email} label="Email" error={errors.email}>
        <Input {...bind('email')} prefix={<MailOutlined />} autoComplete="username" inputMode="email" autoFocus size="large" />
      </Field>
      <Field id={ids.password} label="Пароль" error={errors.password}>
        <Input.Password {...bind('password')} prefix={<LockOutlined />} autoComplete="current-password" size="large" />
      </Field>
      <Button type="primary" htmlType="submit" size="large" block loading={login.isPending}>
        Войти
      </Button>
      <div style={{ textAlign: 'center', marginTop: 12 }}>
        <Button type="link" onClick={onForgotPassword} disabled={login.isPending}>
          Забыли пароль?
        </Button>
      </div>
      {error && <Alert type="error" showIcon title={error} data-testid="login-error" style={{ marginTop: 8 }} />}
    </form>
  );
}

/** A labelled field with its message below, laid out as antd's vertical Form.Item. */
function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ marginBottom: error ? token.marginXS : token.marginLG }}>
      <label htmlFor={id} style={{ display: 'block', paddingBottom: token.paddingXS, color: token.colorTextHeading }}>
        {label}
      </label>
      {children}
      {error && (
        <div id={`${id}-error`} role="alert" style={{ color: token.colorError, minHeight: token.marginLG - token.marginXS }}>
          {error}
        </div>
      )}
    </div>
  );
}
