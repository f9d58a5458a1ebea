import { useLocation } from '@tanstack/react-router';
import { ErrorPage } from './ErrorPage';
import { ERROR_PAGE_MESSAGES, notFoundMessage } from './errors';

/** Unknown console route: 404 «Страница не найдена» over the spec's 'Page Not Found: {path}'. */
export function NotFoundPage() {
  const pathname = useLocation({ select: (l) => l.pathname });
  return <ErrorPage status={404} heading={ERROR_PAGE_MESSAGES[404]} message={notFoundMessage(pathname)} />;
}
