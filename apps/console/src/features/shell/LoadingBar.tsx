import { LOADING_INDICATOR } from '@forpost/contract/http-constants';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { theme } from 'antd';
import { useEffect, useRef, useState } from 'react';

const { duration, throttle, hideDelay, resetDelay } = LOADING_INDICATOR;

/** Progress that approaches 100 % without reaching it: ~70 % after `duration`. */
const estimate = (elapsed: number) => (2 / Math.PI) * 100 * Math.atan(((elapsed / duration) * 100) / 50);

/**
 * Thin progress bar at the top of the window (nprogress-like) while the router is loading a route
 * or any query/mutation is in flight. Shown only if the work lasts longer than `throttle`; after it
 * ends the bar fills, hides after `hideDelay` and resets after a further `resetDelay`.
 */
export function LoadingBar() {
  const routing = useRouterState({ select: (s) => s.status === 'pending' || s.isLoading });
  const fetching = useIsFetching();
  const mutating = useIsMutating();
  const active = routing || fetching > 0 || mutating > 0;

  const { token } = theme.useToken();
  const [progress, setProgress] = useState(0);
  const [visible, setVisible] = useState(false);
  const timers = useRef<{ throttle?: number; tick?: number; hide?: number; reset?: number }>({});
  const shownRef = useRef(false);

  useEffect(() => {
    const t = timers.current;
    const clear = (key: keyof typeof t) => {
      if (t[key] !== undefined) {
        window.clearTimeout(t[key]);
        window.clearInterval(t[key]);
        t[key] = undefined;
      }
    };
    if (active) {
      clear('hide');
      clear('reset');
      if (shownRef.current) {
        // Still (or again) busy while the bar is on screen: keep it, restart the estimate if it filled.
        setVisible(true);
        if (t.tick === undefined) {
          const started = Date.now();
          setProgress(0);
          t.tick = window.setInterval(() => setProgress(estimate(Date.now() - started)), 100);
        }
        return;
      }
      if (t.throttle !== undefined) return;
      t.throttle = window.setTimeout(() => {
        t.throttle = undefined;
        shownRef.current = true;
        const started = Date.now();
        setProgress(0);
        setVisible(true);
        t.tick = window.setInterval(() => setProgress(estimate(Date.now() - started)), 100);
      }, throttle);
      return;
    }
    // Finished.
    clear('throttle');
    if (!shownRef.current) return;
    clear('tick');
    setProgress(100);
    t.hide = window.setTimeout(() => {
      t.hide = undefined;
      setVisible(false);
      t.reset = window.setTimeout(() => {
        t.reset = undefined;
        shownRef.current = false;
        setProgress(0);
      }, resetDelay);
    }, hideDelay);
  }, [active]);

  useEffect(() => {
    const t = timers.current;
    return () => {
      for (const id of Object.values(t)) {
        window.clearTimeout(id);
        window.clearInterval(id);
      }
    };
  }, []);

  return (
    <div
      aria-hidden
      data-testid="loading-bar"
      data-active={visible ? 'true' : 'false'}
      style={{
        position: 'fixed',
        top: 0,
        left: 0,
        zIndex: 2000,
        height: 3,
        width: `${progress}%`,
        background: token.colorPrimary,
        boxShadow: `0 0 6px ${token.colorPrimary}`,
        opacity: visible ? 1 : 0,
        transition: `width 0.1s linear, opacity ${visible ? 0 : 0.4}s ease`,
        pointerEvents: 'none',
      }}
    />
  );
}
