/* «Мои экспорты»: service (with its pg-boss jobs) and routes. */

export { exportsRoutes } from './exports.routes';
export { createExportsService, EXPORT_QUEUE, type ExportsService } from './exports.service';
