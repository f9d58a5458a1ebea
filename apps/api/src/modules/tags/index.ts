/* Tags area (global reference data): routes built by the reference-list generator. */
export { tagsRoutes } from './tags.routes';
