export { configsRoutes } from './configs.routes';
export { type ConfigsService, createConfigsService, envDefaults } from './configs.service';
