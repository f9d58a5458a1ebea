/** Thrown by route guards when the user lacks a permission; the route error boundary shows 403. */
export class ForbiddenError extends Error {
  readonly status = 403;
  constructor() {
    super('Forbidden');
    this.name = 'ForbiddenError';
  }
}

export const ERROR_PAGE_MESSAGES: Record<number, string> = {
  403: 'У вас нет прав для доступа',
  404: 'Страница не найдена',
  500: 'Внутренняя ошибка сервера',
  503: 'Сервис временно недоступен',
};

export const notFoundMessage = (path: string): string => `Page Not Found: ${path}`;
