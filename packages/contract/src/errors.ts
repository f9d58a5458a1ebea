import { z } from 'zod';

/** Every API error, validation included, has this shape; `message` is Russian and safe to show. */
export const errorResponse = z
  .object({
    statusCode: z.number().int(),
    statusMessage: z.string(),
    message: z.string(),
    data: z.unknown().optional(),
  })
  .meta({ id: 'Error' });
export type ErrorResponse = z.infer<typeof errorResponse>;

/** Field-level validation problems travel in `data.fields` of a 400. */
export const fieldErrors = z.record(z.string(), z.string());
export type FieldErrors = z.infer<typeof fieldErrors>;

export const STATUS_MESSAGES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Russian messages of the API's own errors (validation messages live in messages.ts). */
export const API_MSG = {
  unauthorized: 'Требуется вход в систему',
  forbidden: 'У вас нет прав для доступа',
  notFound: 'Не найдено',
  routeNotFound: 'Адрес API не найден',
  badJson: 'Некорректный JSON в теле запроса',
  validation: 'Проверьте правильность заполнения полей',
  tooLarge: 'Слишком большой запрос',
  unsupportedMedia: 'Неподдерживаемый тип содержимого',
  invalidCredentials: 'Неверный email или пароль',
  unavailable: 'Сервис временно недоступен, попробуйте позже',
  originMismatch: 'Запрос отклонён: неверный источник (Origin)',
  tooManyRequests: 'Слишком много попыток, попробуйте позже',
  generic: 'Ошибка, попробуйте позже',
  sessionOnly: 'Недоступно для API-ключа: войдите в консоль',
  badId: 'Неверный идентификатор',
  badText: 'Недопустимые символы в тексте (нулевой байт или одиночный суррогат UTF-16)',
  badUrl: 'Некорректный адрес запроса',
  urlTooLong: 'Слишком длинный адрес или заголовки запроса',
  requestTimeout: 'Запрос не получен целиком вовремя',
  badMultipart: 'Повреждённая форма multipart/form-data',
} as const;
