import { MSG } from '@forpost/contract/messages';
import { isEmail, isStrongPassword, PASSWORD_MAX_LENGTH } from '@forpost/contract/validators';
import type { FormRule } from 'antd';
import { errorMessage, getErrorStatus } from '../../../lib/http';

export const requiredRule: FormRule = { required: true, whitespace: true, message: MSG.required };

export const emailRule: FormRule = {
  validator: (_, value: unknown) =>
    typeof value !== 'string' || value.trim() === '' || isEmail(value.trim())
      ? Promise.resolve()
      : Promise.reject(new Error(MSG.email)),
};

export const strongPasswordRule: FormRule = {
  validator: (_, value: unknown) => {
    if (typeof value !== 'string' || value === '') return Promise.resolve();
    if ([...value].length > PASSWORD_MAX_LENGTH) return Promise.reject(new Error(MSG.passwordTooLong));
    return isStrongPassword(value) ? Promise.resolve() : Promise.reject(new Error(MSG.weakPassword));
  },
};

/** The inline text for a failed sign-in call (also logged: spec §8 "login errors: only logged"). */
export function signInErrorText(error: unknown): string {
  console.error('Вход не выполнен', error);
  if (getErrorStatus(error) === 404) return 'Сервис входа недоступен, попробуйте позже';
  return errorMessage(error);
}
