/* SQL of document metadata (`docs`; the bytes are in the DocStore). No permission checks here. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { docs, events } from '../../db/schema/index';

export type DocRow = typeof docs.$inferSelect;
export type NewDoc = typeof docs.$inferInsert;

export function createDocsRepo(db: Db) {
  return {
    async find(id: number, tx: Db = db): Promise<DocRow | undefined> {
      const [d] = await tx.select().from(docs).where(eq(docs.id, id)).limit(1);
      return d;
    },

    async insert(v: NewDoc, tx: Db = db): Promise<DocRow> {
      const [d] = await tx.insert(docs).values(v).returning();
      if (!d) throw new Error('doc insert returned nothing');
      return d;
    },

    async rename(id: number, name: string, tx: Db = db): Promise<DocRow | undefined> {
      const [d] = await tx.update(docs).set({ name, updatedAt: new Date() }).where(eq(docs.id, id)).returning();
      return d;
    },

    async remove(id: number, tx: Db = db): Promise<void> {
      await tx.delete(docs).where(eq(docs.id, id));
    },

    /** The company of the event a file is attached to (read here, so the documents need not the event engine). */
    async eventCompany(eventId: number, tx: Db = db): Promise<number | undefined> {
      const [e] = await tx.select({ companyId: events.companyId }).from(events).where(eq(events.id, eventId)).limit(1);
      return e?.companyId;
    },
  };
}
