/*
 * Statuses, priorities and decisions per module: seeded idempotently at start from the registry
 * (one upsert per table), then cached in memory — they are append-only reference data.
 */
import type { DecisionItem, PriorityItem, StatusItem } from '@forpost/contract/events';
import { INITIAL_STATUS, MODULE_LIST, type ModuleCode, prioritiesOf, statusesOf } from '@forpost/contract/modules';
import type { Db } from '../../../db/client';
import { createRefsRepo } from './refs.repo';

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
  const repo = createRefsRepo(db);
  await repo.upsertStatuses(statuses);
  await repo.upsertPriorities(priorities);
  await repo.upsertDecisions(decisions);
  // Editable reference lists are seeded once: an administrator's later edits and deletions stay.
  await db.transaction(async (tx) => {
    if (!(await repo.markSeeded('events.reference.v1', tx))) return;
    await repo.insertLeakTypes(LEAK_TYPES, tx);
    await repo.insertMediaTypes(
      MEDIA_TYPES.map((name) => ({ name })),
      tx,
    );
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
  const { statuses: s, priorities: p, decisions: d } = await createRefsRepo(db).all();
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
