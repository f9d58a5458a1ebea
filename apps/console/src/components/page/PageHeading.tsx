import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { usePageTitle } from '../../features/shell/usePageTitle';

export interface PageHeadingProps {
  /** The page's Russian name: the heading and the document title. */
  title: string;
  /** A line under the title. */
  subtitle?: ReactNode;
  /** Buttons on the right. */
  extra?: ReactNode;
  /** Something before the title (a back link). */
  back?: ReactNode;
}

/** Page heading of the console pages: title (data-testid="page-title"), subtitle and actions. */
export function PageHeading({ title, subtitle, extra, back }: PageHeadingProps) {
  usePageTitle(title);
  return (
    <div style={{ marginBottom: 16 }}>
      {back}
      <Flex align="center" justify="space-between" gap={16} wrap>
        <div style={{ minWidth: 0 }}>
          <Typography.Title level={3} style={{ margin: 0 }} data-testid="page-title">
            {title}
          </Typography.Title>
          {subtitle && (
            <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4 }}>
              {subtitle}
            </Typography.Text>
          )}
        </div>
        {extra && (
          <Flex gap={8} wrap>
            {extra}
          </Flex>
        )}
      </Flex>
    </div>
  );
}
