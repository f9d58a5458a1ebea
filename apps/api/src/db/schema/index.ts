export * from './bulk';
export * from './discovery';
export * from './events';
export * from './identity';
export * from './insights';
export * from './notifications';
export * from './settings';
export * from './transfer';
