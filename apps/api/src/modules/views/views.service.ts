/*
 * Saved views and user preferences. A personal view is its owner's alone; a shared one is seen by
 * every user who may read events of its company. The owner changes a view; a shared view may also be
 * changed by an administrator of its company (users.manage there: the company admin, staff admins).
 * Other users' personal views and other companies' shared views are «not found».
 */

import { API_MSG } from '@forpost/contract/errors';
import { EVENT_MSG, isModuleCode, MODULES, type ModuleDescriptor } from '@forpost/contract/modules';
import { can, companiesWith } from '@forpost/contract/permissions';
import { defaultViewPrefKey, preferenceSchema, type SavedView, VIEW_MSG, type ViewState } from '@forpost/contract/views';
import type { Db } from '../../db/client';
import { type Caller, scopeFor } from '../../lib/caller';
import { ApiError, badRequest, notFound } from '../../lib/errors';
import { iso } from '../../lib/serialize';
import { createViewsRepo, type ViewRow } from './views.repo';

export function moduleOfCode(code: string): ModuleDescriptor {
  if (!isModuleCode(code)) throw notFound(VIEW_MSG.moduleNotFound);
  return MODULES[code] as ModuleDescriptor;
}

export function createViewsService(deps: { db: Db }) {
  const { db } = deps;
  const repo = createViewsRepo(db);
  const me = (c: Caller) => c.auth.user.id;

  const visible = (c: Caller, v: ViewRow) =>
    v.ownerId === me(c) || (v.shared && v.companyId !== null && can(c.auth.principal, 'events.read', v.companyId));
  const editable = (c: Caller, v: ViewRow) =>
    v.ownerId === me(c) || (v.shared && v.companyId !== null && can(c.auth.principal, 'users.manage', v.companyId));
  const toItem = (c: Caller, v: ViewRow): SavedView => ({
    id: v.id,
    module: v.module,
    name: v.name,
    owner_id: v.ownerId,
    owner_name: v.ownerName,
    company_id: v.companyId,
    company_name: v.companyName,
    shared: v.shared,
    state: v.state as ViewState,
    can_edit: editable(c, v),
    created_at: iso(v.createdAt),
    updated_at: iso(v.updatedAt),
  });

  /** A view the caller sees (else 404). */
  async function find(c: Caller, m: ModuleDescriptor, id: number, tx: Db = db): Promise<ViewRow> {
    const v = await repo.get(id, m.code, tx);
    if (!v || !visible(c, v)) throw notFound(VIEW_MSG.notFound);
    return v;
  }

  /**
   * The company of a view: the given one must be readable (another company's id is «not found»); a
   * shared view without one takes the caller's only company, else the caller must choose.
   */
  function companyOf(c: Caller, shared: boolean, given: number | null | undefined): number | null {
    if (given != null) {
      if (!can(c.auth.principal, 'events.read', given)) throw notFound(EVENT_MSG.companyNotFound);
      return given;
    }
    if (!shared) return null;
    const all = companiesWith(c.auth.principal, 'events.read');
    if (all !== 'all' && all.length === 1 && all[0] !== undefined) return all[0];
    throw badRequest(VIEW_MSG.companyForShared, { company_id: VIEW_MSG.companyForShared });
  }

  return {
    async list(c: Caller, m: ModuleDescriptor, companyId?: number) {
      const rows = await repo.list(m.code, me(c), scopeFor(c, 'events.read', companyId));
      return { items: rows.filter((v) => visible(c, v)).map((v) => toItem(c, v)) };
    },

    async create(
      c: Caller,
      m: ModuleDescriptor,
      body: { name: string; shared: boolean; company_id?: number | null; state: ViewState },
    ) {
      const companyId = companyOf(c, body.shared, body.company_id);
      const id = await repo.insert({
        module: m.code,
        name: body.name,
        ownerId: me(c),
        companyId,
        shared: body.shared,
        state: body.state,
      });
      return toItem(c, await find(c, m, id));
    },

    async update(
      c: Caller,
      m: ModuleDescriptor,
      id: number,
      body: { name?: string; shared?: boolean; company_id?: number | null; state?: ViewState },
    ) {
      return db.transaction(async (tx) => {
        const v = await find(c, m, id, tx);
        if (!editable(c, v)) throw new ApiError(403, VIEW_MSG.notOwner);
        const shared = body.shared ?? v.shared;
        const companyId =
          body.company_id !== undefined || (shared && v.companyId === null) ? companyOf(c, shared, body.company_id) : v.companyId;
        await repo.update(
          id,
          {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.state !== undefined ? { state: body.state } : {}),
            shared,
            companyId,
          },
          tx,
        );
        // Unsharing another user's view leaves it theirs alone: the answer is the view as it now is.
        return toItem(c, (await repo.get(id, m.code, tx)) as ViewRow);
      });
    },

    async remove(c: Caller, m: ModuleDescriptor, id: number) {
      await db.transaction(async (tx) => {
        const v = await find(c, m, id, tx);
        if (!editable(c, v)) throw new ApiError(403, VIEW_MSG.notOwner);
        await repo.remove(id, m.code, tx);
      });
    },

    async preferences(c: Caller) {
      const rows = await repo.preferences(me(c));
      return { items: rows.map((r) => ({ key: r.key, value: r.value, updated_at: iso(r.updatedAt) })) };
    },

    /** Sets one preference (null resets it); unknown keys and values the key does not take are 400. */
    async putPreference(c: Caller, key: string, value: unknown) {
      const schema = preferenceSchema(key);
      if (!schema) throw badRequest(VIEW_MSG.unknownKey, { key: VIEW_MSG.unknownKey });
      const r = schema.safeParse(value);
      if (!r.success) {
        const fields = Object.fromEntries(r.error.issues.map((i) => [['value', ...i.path].join('.'), i.message]));
        throw badRequest(r.error.issues[0]?.message ?? API_MSG.validation, fields);
      }
      const code = key.split(':')[1];
      if (r.data !== null && code && key === defaultViewPrefKey(code)) await find(c, moduleOfCode(code), r.data as number);
      if (r.data === null) {
        await repo.deletePreference(me(c), key);
        return { key, value: null, updated_at: iso(new Date()) };
      }
      const row = await repo.putPreference(me(c), key, r.data);
      return { key: row.key, value: row.value, updated_at: iso(row.updatedAt) };
    },
  };
}
export type ViewsService = ReturnType<typeof createViewsService>;
