/* Health, version and the OpenAPI document. */
export { systemRoutes } from './system.routes';
export { storageProbe } from './system.service';
