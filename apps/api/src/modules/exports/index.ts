/* Exports: routes and service, mounted together with the imports by imports/transfer.ts. */
export { exportsRoutes } from './exports.routes';
export { createExportsService, type ExportsService } from './exports.service';
