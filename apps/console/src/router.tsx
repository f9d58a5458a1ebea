import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { PageSpinner } from './features/shell/PageSpinner';
import { NotFoundPage, RouteErrorPage } from './lazy-pages';
import { queryClient } from './lib/query-client';
import { routeTree } from './routeTree.gen';

export interface RouterContext {
  queryClient: QueryClient;
}

export const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  // Preloaded data lives in TanStack Query; the router must not cache loader results itself.
  defaultPreloadStaleTime: 0,
  defaultPendingComponent: PageSpinner,
  defaultPendingMs: 300,
  defaultNotFoundComponent: NotFoundPage,
  defaultErrorComponent: RouteErrorPage,
  // Scroll to top on navigation, restore the position on back/forward.
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
