/* Imports of events and of the leaks catalogue: service (with its pg-boss job) and routes. */

export { importsRoutes } from './imports.routes';
export { createImportsService, IMPORT_QUEUE, type ImportsService } from './imports.service';
