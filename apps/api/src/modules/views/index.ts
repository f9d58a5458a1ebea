/* Saved views of the event lists and the user's console preferences. */
export { viewsRoutes } from './views.routes';
export { createViewsService } from './views.service';
