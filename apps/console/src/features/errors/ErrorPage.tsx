import { useNavigate } from '@tanstack/react-router';
import type { ResultProps } from 'antd';
import { Button, Result } from 'antd';
import { usePageTitle } from '../shell/usePageTitle';
import { ERROR_PAGE_MESSAGES } from './errors';

export interface ErrorPageProps {
  /** HTTP-like status: 403, 404, 500, 503 (others are shown as is). */
  status: number;
  /** The message under the code; defaults to the Russian text of the status. */
  message?: string;
  /** A Russian heading above a message that is not one (the spec's «Page Not Found: /path»). */
  heading?: string;
}

function resultStatus(status: number): ResultProps['status'] {
  if (status === 403) return '403';
  if (status === 404) return '404';
  return '500';
}

/**
 * The full error page (spec §2, §8): the big status code and a message. Every code except 403 gets
 * the «На главную» button to /.
 */
export function ErrorPage({ status, message, heading }: ErrorPageProps) {
  const navigate = useNavigate();
  const text = message || ERROR_PAGE_MESSAGES[status] || ERROR_PAGE_MESSAGES[500];
  usePageTitle(`Ошибка ${status}`);
  return (
    <Result
      status={resultStatus(status)}
      title={
        <span data-testid="error-status" style={{ fontSize: 64, fontWeight: 700, lineHeight: 1.1 }}>
          {status}
        </span>
      }
      subTitle={
        <>
          {heading && (
            <h1 data-testid="error-heading" style={{ fontSize: 20, fontWeight: 600, margin: '0 0 8px' }}>
              {heading}
            </h1>
          )}
          <span data-testid="error-message" style={{ fontSize: 16 }}>
            {text}
          </span>
        </>
      }
      extra={
        status === 403 ? null : (
          <Button type="primary" onClick={() => navigate({ to: '/' })}>
            На главную
          </Button>
        )
      }
    />
  );
}
