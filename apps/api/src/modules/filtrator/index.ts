export { filtratorRoutes } from './filtrator.routes';
export { createFiltratorService, type FiltratorService } from './filtrator.service';
