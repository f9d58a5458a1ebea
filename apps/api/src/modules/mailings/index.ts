export { startMailingsWorker } from './mailings.jobs';
export { mailingsRoutes } from './mailings.routes';
export { createMailingsService, type MailingsService } from './mailings.service';
