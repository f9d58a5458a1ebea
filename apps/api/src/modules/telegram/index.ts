export { telegramRoutes } from './telegram.routes';
export { createTelegramService, type TelegramService } from './telegram.service';
