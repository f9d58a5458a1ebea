/* Route rules area: redirects from paths that are no console route (issue #16). */
export { routeRulesRoutes } from './route-rules.routes';
export { createRouteRulesService, type RouteRulesService } from './route-rules.service';
