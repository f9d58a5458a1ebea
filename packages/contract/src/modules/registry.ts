/* Which modules exist and in which order, derived from the descriptors listed in defs/index.ts. */
import * as defs from './defs/index';
import type { ModuleDescriptor } from './types';

type Defs = typeof defs;
/** API code of an event module. */
export type ModuleCode = Defs[keyof Defs]['code'];

/** Every descriptor, in the order of the menu (by id). */
export const MODULE_LIST: readonly ModuleDescriptor[] = (Object.values(defs) as ModuleDescriptor[]).sort((a, b) => a.id - b.id);

/** API codes of the event modules, in the order of the menu. */
export const MODULE_CODES = MODULE_LIST.map((m) => m.code) as unknown as readonly [ModuleCode, ...ModuleCode[]];

/** The descriptors by code. */
export const MODULES = Object.fromEntries(MODULE_LIST.map((m) => [m.code, m])) as unknown as {
  readonly [C in ModuleCode]: ModuleDescriptor<C>;
};
