import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { LoadingBar } from '../features/shell/LoadingBar';
import { VersionNotice } from '../features/shell/VersionNotice';
import { NotFoundPage } from '../lazy-pages';
import type { RouterContext } from '../router';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <LoadingBar />
      <VersionNotice />
      <Outlet />
    </>
  ),
  notFoundComponent: NotFoundPage,
});
