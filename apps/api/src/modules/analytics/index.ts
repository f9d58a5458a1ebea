export { analyticsRoutes } from './analytics.routes';
export { createAnalyticsService, type AnalyticsService } from './analytics.service';
export { startAnalyticsWorker } from './analytics.jobs';
export { createInsightsJobs } from './insights.jobs';
