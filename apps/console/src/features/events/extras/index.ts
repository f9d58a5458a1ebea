/*
 * The detail page's blocks beyond the common ones, per module — explicit, one small component per
 * extra. A module missing here is a type error.
 */
import type { ModuleCode } from '@forpost/contract/modules';
import type { ComponentType } from 'react';
import { DomainSnapshots } from './DomainSnapshots';
import { EventActions } from './EventActions';
import { LinkedLeaks } from './LinkedLeaks';
import { MerchantCategories } from './MerchantCategories';
import { RepoFiles } from './RepoFiles';
import type { ExtrasProps } from './types';

export type { ExtrasProps };

/** Every extras block, by name. */
export const EXTRAS = {
  actions: EventActions,
  snapshots: DomainSnapshots,
  linkedLeaks: LinkedLeaks,
  repoFiles: RepoFiles,
  merchantCategories: MerchantCategories,
} satisfies Record<string, ComponentType<ExtrasProps>>;
export type ExtraName = keyof typeof EXTRAS;

export const MODULE_EXTRAS: Record<ModuleCode, readonly ExtraName[]> = {
  domains: ['actions', 'snapshots'],
  brand: ['actions'],
  management: ['actions'],
  databases: [],
  services: [],
  // The card number's «Показать номер» is part of its field (sensitive: 'card'), not a separate block.
  acquiring: [],
  employees: [],
  firms: [],
  accounts: ['linkedLeaks'],
  leaks: [],
  repositories: ['repoFiles'],
  media: [],
  merchant: ['merchantCategories'],
  endpoints: [],
  consulting: [],
  networkattacks: [],
};
