import { describe, expect, it } from 'vitest';
import { bindFeedback, type Feedback, feedback, feedbackWanted, onFeedbackWanted } from './feedback';

/** A stand-in host: records every call it receives. */
function host(calls: string[]): Feedback {
  const part = (name: string) =>
    new Proxy(
      {},
      {
        get: (_t, method: string) => (arg: unknown) => {
          calls.push(`${name}.${method}:${typeof arg === 'string' ? arg : JSON.stringify(arg)}`);
          return `${name}.${method}`;
        },
      },
    );
  return { message: part('message'), notification: part('notification'), modal: part('modal') } as unknown as Feedback;
}

describe('feedback: toasts and dialogs before their host is loaded', () => {
  it('queues calls made before the host is up, asks for it once, then replays them in order', () => {
    let asked = 0;
    const stop = onFeedbackWanted(() => asked++);
    expect(feedbackWanted()).toBe(false);

    expect(feedback.message.error('Сервер недоступен')).toBeUndefined();
    feedback.notification.warning({ title: 'Версия приложения устарела' });
    expect(feedbackWanted()).toBe(true);
    expect(asked).toBe(1);

    const calls: string[] = [];
    bindFeedback(host(calls));
    expect(calls).toEqual(['message.error:Сервер недоступен', 'notification.warning:{"title":"Версия приложения устарела"}']);

    // Once bound, calls go straight through and return what the host returns.
    expect(feedback.modal.confirm({ title: 'Удалить?' })).toBe('modal.confirm');
    expect(calls).toHaveLength(3);
    expect(asked).toBe(1);

    // The host unmounted: calls wait again for the next one.
    bindFeedback(null);
    feedback.message.success('Сохранено');
    expect(calls).toHaveLength(3);
    const next: string[] = [];
    bindFeedback(host(next));
    expect(next).toEqual(['message.success:Сохранено']);
    stop();
  });
});
