/*
 * Start: the mapping is checked, the company for rows without one and the companies the author may
 * import into are fixed, and the import is queued — the row, its doc, the job and the audit entry
 * in one transaction, so the job exists exactly when the row says «queued».
 */
import { IMPORT_MSG, type ImportItem, type ImportStartRequest, LEAKS_CATALOGUE } from '@forpost/contract/imports';
import { clientDb } from '../../db/client';
import { inClientTransaction, onClient } from '../../db/jobs-kit';
import { type Caller, targetCompany } from '../../lib/caller';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { assertModuleEnabled } from '../events/index';
import { importScope, loadImport, toItem } from './access';
import { IMPORT_QUEUE, type ImportsContext, JOB_OPTIONS, type TargetCode } from './context';
import { mappingErrors } from './preview';

export async function start(
  ctx: ImportsContext,
  c: Caller,
  code: TargetCode,
  id: number,
  body: ImportStartRequest,
): Promise<ImportItem> {
  const r = await loadImport(ctx, c, code, id);
  if (r.status !== 'uploaded') throw conflict(IMPORT_MSG.notStartable);
  const problems = mappingErrors(ctx.targetOf(code).fields, r.headers, body.mapping);
  if (problems.length) throw badRequest(problems[0], { mapping: problems.join('; ') });
  const { companyId, scope } =
    code === LEAKS_CATALOGUE ? { companyId: null, scope: null } : await companiesOf(ctx, c, code, body);
  const b = ctx.boss.get();
  await inClientTransaction(ctx.deps.pool, async (client) => {
    const tx = clientDb(client);
    if (!(await ctx.repo.queue(id, { mapping: body.mapping, mode: body.mode, companyId, scope }, tx)))
      throw conflict(IMPORT_MSG.notStartable);
    if (r.docId) await ctx.repo.setDocCompany(r.docId, companyId, tx);
    await b.send(IMPORT_QUEUE, { id }, { ...JOB_OPTIONS, db: onClient(client) });
    await ctx.deps.audit.record(
      c.actor,
      {
        action: 'import.start',
        entity: 'import',
        entityId: id,
        companyId,
        after: { module: code, mode: body.mode, mapping: body.mapping },
      },
      tx,
    );
  });
  const row = await ctx.repo.find(id);
  if (!row) throw notFound(IMPORT_MSG.notFound);
  return toItem(row);
}

/**
 * The company of rows without one (the one given; the caller's only company; none when the file has a
 * company column) — it must take the module — and the companies the author may import into (null: all).
 */
export async function companiesOf(
  ctx: ImportsContext,
  c: Caller,
  code: TargetCode,
  body: Pick<ImportStartRequest, 'mapping' | 'company_id'>,
): Promise<{ companyId: number | null; scope: number[] | null }> {
  const s = importScope(c);
  let companyId: number | null = null;
  if (body.company_id !== undefined) companyId = targetCompany(c, 'events.import', body.company_id);
  else if (!body.mapping.includes('company_id')) companyId = targetCompany(c, 'events.import', undefined);
  else if (s !== 'all' && s.length === 1) companyId = s[0] ?? null; // rows without a company go to the only one
  if (companyId !== null) assertModuleEnabled(await ctx.companies.modules(companyId), code);
  return { companyId, scope: s === 'all' ? null : s };
}
