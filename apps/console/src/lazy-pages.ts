import { lazyRouteComponent } from '@tanstack/react-router';

/*
 * The error pages (antd Result with its illustrations) load when first shown, not with the login page:
 * the router plugin's code splitting treats route error/not-found components the same way, but the
 * router's defaults and the root route are not split by it. lazyRouteComponent reloads the page once
 * when the chunk is gone after a new deploy.
 */
export const NotFoundPage = lazyRouteComponent(() => import('./features/errors/NotFoundPage'), 'NotFoundPage');
export const RouteErrorPage = lazyRouteComponent(() => import('./features/errors/RouteErrorPage'), 'RouteErrorPage');
