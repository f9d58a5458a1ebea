export { mailingsRoutes } from './mailings.routes';
export { createMailingsService, type MailingsService } from './mailings.service';
export { startMailingsWorker } from './mailings.jobs';
