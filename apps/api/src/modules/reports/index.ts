export { reportsRoutes } from './reports.routes';
export { createReportsService, REPORT_SEND_QUEUE, type ReportsService } from './reports.service';
