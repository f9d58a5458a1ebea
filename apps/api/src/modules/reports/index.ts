export { reportsRoutes } from './reports.routes';
export { createReportsRepos, createReportsService, REPORT_SEND_QUEUE, type ReportsService } from './reports.service';
