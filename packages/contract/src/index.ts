export * from './auth';
export * from './errors';
export * from './format';
export * from './helpers';
export * from './http-constants';
export * from './messages';
export * from './permissions';
export * from './validation';
