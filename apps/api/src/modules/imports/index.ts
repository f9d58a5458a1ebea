/* Imports (and, through `createTransfer`, exports): the writer of event rows shared with discovery. */
export type { EventRecord } from './event-row';
export { type EventWriter, writeEvents } from './event-write';
export { createTransfer } from './transfer';
