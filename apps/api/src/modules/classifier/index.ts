export { startClassifierWorker } from './classifier.jobs';
export { classifierRoutes } from './classifier.routes';
export { builtinClassify, type ClassifierService, createClassifierService } from './classifier.service';
