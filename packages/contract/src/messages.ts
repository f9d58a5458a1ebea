/** Russian validation messages shown in forms and returned by the API (spec strings, verbatim). */
export const MSG = {
  required: 'Обязательное поле',
  email: 'Неверный формат email',
  passwordsDiffer: 'Пароли не совпадают',
  url: 'Неверный формат URL',
  card: 'Неверный формат номера карты',
  fillRequired: 'Заполните все обязательные поля',
  generic: 'Ошибка, попробуйте позже',
  weakPassword: 'Слишком слабый пароль',
  ip: 'Некорректный IP или CIDR',
  ipDuplicate: 'IP уже добавлен',
  passwordTooLong: 'Пароль слишком длинный',
  domain: 'Неверный формат домена',
  inn: 'Неверный ИНН',
  ogrn: 'Неверный ОГРН',
  tooLong: (n: number) => `Не более ${n} символов`,
} as const;

/** Messages of sign-in, 2FA and the profile (re-exported by profile.ts; here for the sign-in page without zod). */
export const IDENTITY_MSG = {
  badCode: 'Неверный код',
  badRecovery: 'Неверный или уже использованный резервный код',
  stepExpired: 'Время на ввод кода истекло, войдите заново',
  wrongPassword: 'Неверный текущий пароль',
  tokenInvalid: 'Ссылка недействительна или устарела. Запросите новую',
  resetSent: 'Если такой пользователь существует, мы отправили письмо со ссылкой для смены пароля',
  ipSelfLockout: (ip: string) => `Список не включает ваш текущий адрес ${ip}: вы потеряете доступ`,
  noSetup: 'Сначала начните подключение двухфакторной аутентификации',
  already2fa: 'Двухфакторная аутентификация уже включена',
  profileUpdated: 'Профиль обновлён',
} as const;
