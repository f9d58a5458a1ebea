export { configsRoutes } from './configs.routes';
export { type ConfigsService, createConfigsService } from './configs.service';
