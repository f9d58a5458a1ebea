/* Imports of events and of the leaks catalogue: service (with its pg-boss job) and routes. */

export { IMPORT_QUEUE } from './context';
export { importsRoutes } from './imports.routes';
export { createImportsService, type ImportsService } from './imports.service';
