/* Dashboards: routes, the service with its cache, the figures' SQL (also read by the reports) and the worker. */

export { startAnalyticsWorker } from './analytics.jobs';
export { type AnalyticsRepo, type CountColumn, type Counts, createAnalyticsRepo } from './analytics.repo';
export { analyticsRoutes } from './analytics.routes';
export { type AnalyticsService, createAnalyticsService } from './analytics.service';
