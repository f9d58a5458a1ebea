import { useLocation } from '@tanstack/react-router';
import { ErrorPage } from './ErrorPage';
import { notFoundMessage } from './errors';

/** Unknown console route: 404 'Page Not Found: {path}'. */
export function NotFoundPage() {
  const pathname = useLocation({ select: (l) => l.pathname });
  return <ErrorPage status={404} message={notFoundMessage(pathname)} />;
}
