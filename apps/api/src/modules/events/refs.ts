/*
 * Statuses, priorities and decisions per module: seeded idempotently at start from the registry
 * (one upsert per table), then cached in memory — they are append-only reference data.
 */
import type { DecisionItem, PriorityItem, StatusItem } from '@forpost/contract/events';
import { INITIAL_STATUS, MODULE_LIST, type ModuleCode, prioritiesOf, statusesOf } from '@forpost/contract/modules';
import { asc, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appSeeds, eventDecisions, eventPriorities, eventStatuses, leakTypes, mediaTypes } from '../../db/schema/index';

const LEAK_TYPES = [
  { code: 'database_dump', name: 'Дамп базы данных', description: 'Выгрузка таблиц базы данных' },
  { code: 'combolist', name: 'Комбо-лист', description: 'Пары логин:пароль, собранные из разных утечек' },
  { code: 'stealer_logs', name: 'Логи стилеров', description: 'Данные, украденные вредоносным ПО с устройств' },
  { code: 'documents', name: 'Документы', description: 'Внутренние документы, договоры, сканы' },
  { code: 'source_code', name: 'Исходный код', description: 'Код, конфигурации, ключи доступа' },
  { code: 'cards', name: 'Платёжные карты', description: 'Номера карт и данные держателей' },
  { code: 'other', name: 'Прочее', description: null },
];
const MEDIA_TYPES = [
  'Федеральные СМИ',
  'Региональные СМИ',
  'Отраслевые СМИ',
  'Блоги',
  'Социальные сети',
  'Telegram-каналы',
  'Форумы',
];

/** Idempotent and cheap: three upserts that change nothing when the registry did not change. */
export async function seedEventReference(db: Db): Promise<void> {
  const statuses = MODULE_LIST.flatMap((m) =>
    statusesOf(m).map((s, i) => ({
      module: m.code,
      code: s.code,
      name: s.name,
      sort: i + 1,
      isFinal: s.is_final,
      color: s.color,
    })),
  );
  const priorities = MODULE_LIST.flatMap((m) =>
    prioritiesOf(m).map((p) => ({ module: m.code, code: p.code, name: p.name, level: p.level, color: p.color })),
  );
  const decisions = MODULE_LIST.flatMap((m) =>
    (m.decisions ?? []).map((d, i) => ({ module: m.code, code: d.code, name: d.name, sort: i + 1 })),
  );
  await db
    .insert(eventStatuses)
    .values(statuses)
    .onConflictDoUpdate({
      target: [eventStatuses.module, eventStatuses.code],
      set: { name: sql`excluded.name`, sort: sql`excluded.sort`, isFinal: sql`excluded.is_final`, color: sql`excluded.color` },
      setWhere: sql`(${eventStatuses.name}, ${eventStatuses.sort}, ${eventStatuses.isFinal}, ${eventStatuses.color}) IS DISTINCT FROM (excluded.name, excluded.sort, excluded.is_final, excluded.color)`,
    });
  await db
    .insert(eventPriorities)
    .values(priorities)
    .onConflictDoUpdate({
      target: [eventPriorities.module, eventPriorities.code],
      set: { name: sql`excluded.name`, level: sql`excluded.level`, color: sql`excluded.color` },
      setWhere: sql`(${eventPriorities.name}, ${eventPriorities.level}, ${eventPriorities.color}) IS DISTINCT FROM (excluded.name, excluded.level, excluded.color)`,
    });
  if (decisions.length)
    await db
      .insert(eventDecisions)
      .values(decisions)
      .onConflictDoUpdate({
        target: [eventDecisions.module, eventDecisions.code],
        set: { name: sql`excluded.name`, sort: sql`excluded.sort` },
        setWhere: sql`(${eventDecisions.name}, ${eventDecisions.sort}) IS DISTINCT FROM (excluded.name, excluded.sort)`,
      });
  // Editable reference lists are seeded once: an administrator's later edits and deletions stay.
  await db.transaction(async (tx) => {
    const first = await tx.insert(appSeeds).values({ name: 'events.reference.v1' }).onConflictDoNothing().returning();
    if (!first.length) return;
    await tx.insert(leakTypes).values(LEAK_TYPES).onConflictDoNothing();
    await tx
      .insert(mediaTypes)
      .values(MEDIA_TYPES.map((name) => ({ name })))
      .onConflictDoNothing();
  });
}

export interface Refs {
  statuses(module: ModuleCode): StatusItem[];
  priorities(module: ModuleCode): PriorityItem[];
  decisions(module: ModuleCode): DecisionItem[];
  initialStatus(module: ModuleCode): number;
  isStatus(module: ModuleCode, id: number): boolean;
  isPriority(module: ModuleCode, id: number): boolean;
  isDecision(module: ModuleCode, id: number): boolean;
}

/** Loads the seeded reference lists into memory. */
export async function loadRefs(db: Db): Promise<Refs> {
  const [s, p, d] = await Promise.all([
    db.select().from(eventStatuses).orderBy(asc(eventStatuses.module), asc(eventStatuses.sort)),
    db.select().from(eventPriorities).orderBy(asc(eventPriorities.module), asc(eventPriorities.level)),
    db.select().from(eventDecisions).orderBy(asc(eventDecisions.module), asc(eventDecisions.sort)),
  ]);
  const by = <T extends { module: string }, U>(rows: T[], map: (r: T) => U) => {
    const m = new Map<string, U[]>();
    for (const r of rows) {
      const list = m.get(r.module) ?? [];
      list.push(map(r));
      m.set(r.module, list);
    }
    return m;
  };
  const statuses = by(s, (r) => ({ id: r.id, code: r.code, name: r.name, is_final: r.isFinal, color: r.color, sort: r.sort }));
  const priorities = by(p, (r) => ({ id: r.id, code: r.code, name: r.name, level: r.level, color: r.color }));
  const decisions = by(d, (r) => ({ id: r.id, code: r.code, name: r.name, sort: r.sort }));
  const has = <T extends { id: number }>(m: Map<string, T[]>, module: string, id: number) =>
    Boolean(m.get(module)?.some((x) => x.id === id));
  return {
    statuses: (module) => statuses.get(module) ?? [],
    priorities: (module) => priorities.get(module) ?? [],
    decisions: (module) => decisions.get(module) ?? [],
    initialStatus(module) {
      const st = statuses.get(module)?.find((x) => x.code === INITIAL_STATUS);
      if (!st) throw new Error(`no initial status for ${module}`);
      return st.id;
    },
    isStatus: (module, id) => has(statuses, module, id),
    isPriority: (module, id) => has(priorities, module, id),
    isDecision: (module, id) => has(decisions, module, id),
  };
}
