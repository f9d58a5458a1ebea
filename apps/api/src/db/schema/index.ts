export * from './identity';
export * from './settings';
export * from './events';
export * from './transfer';
export * from './insights';
