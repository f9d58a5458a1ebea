export { startClassifierWorker } from './classifier.jobs';
export { classifierRoutes } from './classifier.routes';
export { type ClassifierService, createClassifierService } from './classifier.service';
export { domainParts } from './phishing';
