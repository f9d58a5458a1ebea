import { MSG } from '@forpost/contract/messages';
import { useState } from 'react';
import type { z } from 'zod';
import { errorMessage } from '../../lib/http';

/**
 * Saving a form whose body a contract schema checks before it is sent, with one error line above
 * or under the form: the schema's first issue, or the API's refusal (also logged as `failure`).
 */
export function useCheckedSave(failure: string) {
  const [error, setError] = useState<string | null>(null);

  const run = async <T>(schema: z.ZodType<T>, body: unknown, save: (body: T) => Promise<unknown>) => {
    setError(null);
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? MSG.fillRequired);
      return;
    }
    try {
      await save(parsed.data);
    } catch (e) {
      console.error(failure, e);
      setError(errorMessage(e));
    }
  };

  return { error, clearError: () => error && setError(null), run };
}
