import { useLocation, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { LoadingCard } from '../../components/page/QueryState';
import { followRuleRedirect } from '../../lib/navigation';
import { useRouteRuleLookup } from '../settings/route-rules/api';
import { ErrorPage } from './ErrorPage';
import { ERROR_PAGE_MESSAGES, notFoundMessage } from './errors';

/**
 * Unknown console route: the server's route rules are asked first (a console target through the
 * router, an external one with the whole window); without a rule — 404 «Страница не найдена» over
 * the spec's 'Page Not Found: {path}'.
 */
export function NotFoundPage() {
  const pathname = useLocation({ select: (l) => l.pathname });
  const navigate = useNavigate();
  const lookup = useRouteRuleLookup(pathname);
  const redirect = lookup.data?.redirect ?? null;
  useEffect(() => {
    if (redirect) followRuleRedirect(redirect, (href) => void navigate({ href, replace: true }));
  }, [redirect, navigate]);
  if (lookup.isPending || redirect) return <LoadingCard rows={2} />;
  return <ErrorPage status={404} heading={ERROR_PAGE_MESSAGES[404]} message={notFoundMessage(pathname)} />;
}
