/* Tags area (global reference data): routes built by the reference-list generator. */

export { createTagsRepo } from './tags.repo';
export { tagsRoutes } from './tags.routes';
