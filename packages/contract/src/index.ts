export * from './errors';
export * from './auth';
export * from './permissions';
export * from './messages';
export * from './validation';
export * from './helpers';
export * from './format';
export * from './http-constants';
