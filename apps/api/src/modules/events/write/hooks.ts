/* Points where other areas plug into the event engine. */
import type { ModuleCode, WhitelistKind } from '@forpost/contract/modules';
import type { Db } from '../../../db/client';

/**
 * The whitelist kind of an event (client, partner, undefined) when its subject matches a company or
 * global whitelist entry; null otherwise. Computed on create and whenever module fields change.
 * The settings/whitelist area supplies the real one (registerEventEngine's `whitelistKindFor`);
 * until then nothing matches.
 */
export type WhitelistKindFor = (
  companyId: number,
  module: ModuleCode,
  data: Record<string, unknown>,
) => Promise<WhitelistKind | null>;
export const whitelistKindFor: WhitelistKindFor = async () => null;

/**
 * A module's veto on creating an event (e.g. an allowlisted domain never raises one). Throws an
 * ApiError with a Russian message to refuse. Imports must call the same guards.
 */
type CreateGuard = (ctx: { companyId: number; module: ModuleCode; data: Record<string, unknown>; tx: Db }) => Promise<void>;
export type CreateGuards = Partial<Record<ModuleCode, CreateGuard[]>>;
