export { analyticsRoutes } from './analytics.routes';
export { type AnalyticsService, createAnalyticsService } from './analytics.service';
export { createInsightsJobs } from './insights.jobs';
