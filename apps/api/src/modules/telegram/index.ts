export { ACCOUNT_COLLECTOR_MSG, type AccountCollector, createAccountCollector } from './account-collector';
export { COLLECTOR_MSG, createPreviewCollector, type PassResult, type PreviewCollector } from './collector';
export { type MtprotoFactory, nodeMtprotoFactory } from './mtproto';
export { parsePreview } from './preview';
export { createTelegramRepo } from './telegram.repo';
export { telegramRoutes } from './telegram.routes';
export { createTelegramService, type TelegramService } from './telegram.service';
