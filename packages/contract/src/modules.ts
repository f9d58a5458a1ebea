/* The event module registry (see modules/index.ts). */
export * from './modules/index';
