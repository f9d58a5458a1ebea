import { MODULE_SECTIONS } from '@forpost/contract/modules/sections';

/*
 * The event sections (spec §2): route segment, Russian name, API module code and icon key, from the
 * contract's light section list — no module descriptors, no icons. The route tree needs them before any
 * page loads (the `$section` route checks its segment), so they are in the sign-in page's bundle too
 * (issue #16); the menu's icon components are in nav.ts, with the shell.
 */
export const EVENT_SECTIONS = MODULE_SECTIONS.map((m) => ({
  section: m.route.slice(1),
  module: m.code,
  label: m.name,
  icon: m.icon,
}));

export type EventSection = (typeof EVENT_SECTIONS)[number];

/** The URL segment of a module's event section (`domains` → `domains`, as its descriptor's route says). */
export const sectionOfModule = (code: string): string => EVENT_SECTIONS.find((s) => s.module === code)?.section ?? code;

export function findEventSection(section: string): EventSection | undefined {
  return EVENT_SECTIONS.find((s) => s.section === section);
}
