import type { ErrorComponentProps } from '@tanstack/react-router';
import { Spin } from 'antd';
import { useEffect, useState } from 'react';
import { getErrorBody, getErrorStatus } from '../../lib/http';
import { isChunkLoadError, reloadAfterChunkError } from '../../lib/version-check';
import { ErrorPage } from './ErrorPage';
import { ForbiddenError } from './errors';

/**
 * Route error boundary: a guard's ForbiddenError → 403; an API error → its status page; a failed
 * lazy chunk → one guarded reload; anything else → 500.
 */
export function RouteErrorPage({ error }: ErrorComponentProps) {
  const chunkError = isChunkLoadError(error);
  const [reloading, setReloading] = useState(chunkError);

  useEffect(() => {
    if (chunkError && !reloadAfterChunkError()) setReloading(false);
  }, [chunkError]);

  useEffect(() => {
    if (!(error instanceof ForbiddenError)) console.error(error);
  }, [error]);

  if (reloading) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin size="large" />
      </div>
    );
  }
  if (error instanceof ForbiddenError) return <ErrorPage status={403} />;
  const status = getErrorStatus(error);
  if (status !== undefined && status >= 400) {
    const shown = status === 403 || status === 404 || status === 503 ? status : 500;
    return <ErrorPage status={shown} message={getErrorBody(error)?.message} />;
  }
  return <ErrorPage status={500} />;
}
