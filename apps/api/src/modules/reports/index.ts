export { reportsRoutes } from './reports.routes';
export { createReportsService, REPORT_QUEUE, type ReportsService } from './reports.service';
