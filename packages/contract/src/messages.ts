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
