export { whitelistRoutes } from './whitelist.routes';
export { createWhitelistService, type WhitelistChangeHandler, type WhitelistService } from './whitelist.service';
