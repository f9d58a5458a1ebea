/*
 * The module registry: one line per event module. Everything else — the API's endpoints and OpenAPI,
 * the console's menu, list, detail and import pages, charts, exports, imports and the tests — is
 * derived from the descriptors listed here (the menu order is their ids).
 */
export { accounts } from './accounts';
export { acquiring } from './acquiring';
export { brand } from './brand';
export { consulting } from './consulting';
export { databases } from './databases';
export { domains } from './domains';
export { employees } from './employees';
export { endpoints } from './endpoints';
export { firms } from './firms';
export { leaks } from './leaks';
export { management } from './management';
export { media } from './media';
export { merchant } from './merchant';
export { networkattacks } from './networkattacks';
export { repositories } from './repositories';
export { services } from './services';
