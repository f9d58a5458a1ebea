/*
 * Which modules exist and in which order: the identities in sections.ts (ModuleCode is its keys), each
 * with its descriptor listed in defs/index.ts.
 */
import * as defs from './defs/index';
import type { ModuleCode } from './sections';
import type { ModuleDescriptor } from './types';

export type { ModuleCode } from './sections';

/*
 * Every module of sections.ts has its descriptor in defs/index.ts, exported under its code, and each
 * descriptor takes the identity of that code: a module missing from either list is a compile error here.
 */
const byCode: { readonly [C in ModuleCode]: ModuleDescriptor<C> } = defs;

/** Every descriptor, in the order of the menu (by id). */
export const MODULE_LIST: readonly ModuleDescriptor[] = (Object.values(byCode) as ModuleDescriptor[]).sort((a, b) => a.id - b.id);

/** API codes of the event modules, in the order of the menu. */
export const MODULE_CODES = MODULE_LIST.map((m) => m.code) as unknown as readonly [ModuleCode, ...ModuleCode[]];

/** The descriptors by code. */
export const MODULES = Object.fromEntries(MODULE_LIST.map((m) => [m.code, m])) as unknown as {
  readonly [C in ModuleCode]: ModuleDescriptor<C>;
};
