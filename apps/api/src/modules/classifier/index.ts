export { classifierRoutes } from './classifier.routes';
export { builtinClassify, createClassifierService, type ClassifierService } from './classifier.service';
export { startClassifierWorker } from './classifier.jobs';
