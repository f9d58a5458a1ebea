/*
 * Toasts, notifications and confirmation dialogs (antd's message, notification and modal) without
 * their code in the first download: `feedback` has the API of antd's `App.useApp()`, and its calls go
 * to the real instances of FeedbackHost (features/shell), a separate chunk mounted by Providers once
 * something asks for it. The signed-in shell asks at once; /login when the user first touches the form
 * (issue #16: the sign-in page's JavaScript budget). A call made before the host is up waits for it.
 */
import type { App } from 'antd';

export type Feedback = ReturnType<typeof App.useApp>;
type Part = keyof Feedback;

let real: Feedback | null = null;
let wanted = false;
const waiting: ((f: Feedback) => void)[] = [];
const listeners = new Set<() => void>();

/** Asks Providers to mount the host (idempotent). */
export function loadFeedback(): void {
  if (wanted) return;
  wanted = true;
  for (const l of listeners) l();
}

/** Called by FeedbackHost with its instances (null when it unmounts); runs the calls that waited. */
export function bindFeedback(f: Feedback | null): void {
  real = f;
  if (f) for (const call of waiting.splice(0)) call(f);
}

export const feedbackWanted = (): boolean => wanted;
export function onFeedbackWanted(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** One of the three APIs: each method calls the host's instance, or queues the call until it is up. */
function deferred<P extends Part>(part: P): Feedback[P] {
  return new Proxy({} as Feedback[P], {
    get:
      (_target, method: string) =>
      (...args: unknown[]) => {
        const call = (f: Feedback) => (f[part] as unknown as Record<string, (...a: unknown[]) => unknown>)[method]?.(...args);
        if (real) return call(real);
        waiting.push(call);
        loadFeedback();
        return undefined;
      },
  });
}

/** message, notification and modal, as antd's `App.useApp()` gives them. */
export const feedback: Feedback = {
  message: deferred('message'),
  notification: deferred('notification'),
  modal: deferred('modal'),
};
