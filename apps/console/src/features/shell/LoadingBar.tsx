import { LOADING_INDICATOR } from '@forpost/contract/http-constants';
import { useNProgress } from '@tanem/react-nprogress';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { theme } from 'antd';
import { useEffect, useRef, useState } from 'react';

const { duration, throttle, hideDelay, resetDelay } = LOADING_INDICATOR;
const TICK_MS = 100;

/** Progress that approaches 100 % without reaching it: ~70 % after `duration` (as a fraction). */
const estimate = (elapsed: number) => (2 / Math.PI) * Math.atan((2 * elapsed) / duration);

/** True once `active` has lasted `delay` ms, false as soon as it ends: short work shows no bar. */
function useLasting(active: boolean, delay: number) {
  const [lasting, setLasting] = useState(false);
  useEffect(() => {
    if (!active) {
      setLasting(false);
      return;
    }
    const timer = window.setTimeout(() => setLasting(true), delay);
    return () => window.clearTimeout(timer);
  }, [active, delay]);
  return lasting;
}

/**
 * Thin progress bar at the top of the window while the router loads a route or a query/mutation
 * is in flight, for work lasting longer than `throttle`. @tanem/react-nprogress runs the ticks and
 * the finish: each tick shows the estimate for the time since the bar appeared; at the end the bar
 * fills, hides after `hideDelay`, and its width goes back to 0 `resetDelay` later, while invisible.
 */
export function LoadingBar() {
  const routing = useRouterState({ select: (s) => s.status === 'pending' || s.isLoading });
  const fetching = useIsFetching();
  const mutating = useIsMutating();
  const shown = useLasting(routing || fetching > 0 || mutating > 0, throttle);
  // Each tick sets the estimate for the time since the bar appeared, whatever the tick's real length.
  const shownAt = useRef(0);
  useEffect(() => {
    if (shown) shownAt.current = Date.now();
  }, [shown]);
  const { isFinished, progress } = useNProgress({
    isAnimating: shown,
    animationDuration: hideDelay,
    incrementDuration: TICK_MS,
    increment: () => estimate(Date.now() - shownAt.current),
    minimum: 0,
  });
  const { token } = theme.useToken();

  return (
    <div
      aria-hidden
      data-testid="loading-bar"
      data-active={isFinished ? 'false' : 'true'}
      style={{
        position: 'fixed',
        top: 0,
        left: 0,
        zIndex: 2000,
        height: 3,
        width: isFinished ? 0 : `${progress * 100}%`,
        background: token.colorPrimary,
        boxShadow: `0 0 6px ${token.colorPrimary}`,
        opacity: isFinished ? 0 : 1,
        transition: isFinished ? `opacity 0.4s ease, width 0s linear ${resetDelay}ms` : `width ${TICK_MS}ms linear`,
        pointerEvents: 'none',
      }}
    />
  );
}
