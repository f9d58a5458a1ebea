import { notFound } from '@tanstack/react-router';

/** Only a positive integer (at most 15 digits, so it stays exact as a number) can be a record id. */
export const isRecordId = (id: string) => /^[1-9]\d{0,14}$/.test(id);

/** `params` of a `$id` route: anything but a record id is the 404 page. */
export const idParams = {
  parse: ({ id }: { id: string }) => {
    if (!isRecordId(id)) throw notFound();
    return { id };
  },
  stringify: ({ id }: { id: string }) => ({ id }),
};

/** `params` of an optional `{-$id}` route: no id, or a record id; anything else is the 404 page. */
export const optionalIdParams = {
  parse: ({ id }: { id?: string }) => {
    if (id !== undefined && !isRecordId(id)) throw notFound();
    return { id };
  },
  stringify: ({ id }: { id?: string }) => ({ id }),
};
