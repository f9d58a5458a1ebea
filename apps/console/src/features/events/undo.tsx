/*
 * «Отменить» after a change of events (the bulk bar, a change by filter, a key in the list or the card):
 * a message with the button for UNDO_SHOWN_S seconds. The API puts back exactly the fields the change
 * set (POST …/events/undo/{token}); a field someone changed since stays, and the message says how many
 * events were left so.
 */
import type { UndoResponse } from '@forpost/contract/events';
import type { ModuleCode } from '@forpost/contract/modules';
import type { QueryClient } from '@tanstack/react-query';
import { Button, Flex } from 'antd';
import { feedback } from '../../lib/feedback';
import { eventsCount as count } from '../../lib/format';
import { http } from '../../lib/http';
import { paths } from './api/paths';
import { eventKeys } from './api/queries';

/** How long the message with «Отменить» stays. */
export const UNDO_SHOWN_S = 10;

/** A success message `text`; with «Отменить» when the change has an undo token. */
export function offerUndo(qc: QueryClient, code: ModuleCode, token: string | null | undefined, text: string): void {
  const { message } = feedback;
  if (!token) {
    message.success(text);
    return;
  }
  const key = `undo-${token}`;
  const undo = async () => {
    message.destroy(key);
    // A refusal (too late, already undone) is shown by the http layer's error message.
    const r = await http.post(`${paths.events(code)}/undo/${token}`).json<UndoResponse>();
    void qc.invalidateQueries({ queryKey: eventKeys.module(code) });
    const left = r.skipped ? `; не тронуто: ${count(r.skipped)} — их с тех пор изменили` : '';
    message.success(`Изменение отменено: ${count(r.restored)}${left}`);
  };
  message.open({
    key,
    type: 'success',
    duration: UNDO_SHOWN_S,
    content: (
      <Flex component="span" gap={8} align="center" style={{ display: 'inline-flex' }} data-testid="undo-toast">
        <span>{text}</span>
        <Button
          type="link"
          size="small"
          style={{ paddingInline: 0 }}
          onClick={() => void undo().catch(() => undefined)}
          data-testid="undo-button"
        >
          Отменить
        </Button>
      </Flex>
    ),
  });
}
