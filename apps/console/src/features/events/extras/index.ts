/*
 * The detail page's blocks beyond the common ones: one small component per extra of the module
 * descriptor that has a block. A module's blocks follow from its `extras`, in their order.
 */
import type { ModuleDescriptor, ModuleExtra } from '@forpost/contract/modules';
import type { ComponentType } from 'react';
import { DomainWatchAndSnapshots } from '../../watch/DomainBlocks';
import { EventActions } from './EventActions';
import { LinkedLeaks } from './LinkedLeaks';
import { MerchantCategories } from './MerchantCategories';
import { RepoFiles } from './RepoFiles';
import type { ExtrasProps } from './types';

export type { ExtrasProps };

/**
 * The block of each extra that has one. The others have none: they are endpoints the common blocks or
 * fields use (decisions, allowlist, reference lists) — the card number's «Показать номер»
 * (`card_reveal`) is part of its field.
 */
const EXTRA_BLOCKS: Partial<Record<ModuleExtra, ComponentType<ExtrasProps>>> = {
  actions: EventActions,
  // The snapshots' block comes with the watch's timeline (features/watch).
  snapshots: DomainWatchAndSnapshots,
  linked_leaks: LinkedLeaks,
  files: RepoFiles,
  merchant_categories: MerchantCategories,
};

/** A module's extra blocks, in the order of its extras. */
export const extraBlocksOf = (m: ModuleDescriptor) =>
  m.extras.flatMap((name) => {
    const Block = EXTRA_BLOCKS[name];
    return Block ? [{ name, Block }] : [];
  });
