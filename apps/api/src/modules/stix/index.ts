/* STIX 2.1 and TAXII 2.1 (#33): the mapping of events to STIX objects, the TAXII server, an event's bundle. */
export { bundleHead, companyIdentity, eventToStix, type StixContext, type StixEventInput, type StixObject } from './build';
export { uuidv5 } from './ids';
export type { StixEventRow } from './stix.repo';
export { stixRoutes } from './stix.routes';
export { createStixService, rowToStixInput, type StixService, stixNamespace } from './stix.service';
