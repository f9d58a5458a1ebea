import { ToolOutlined } from '@ant-design/icons';
import { Link } from '@tanstack/react-router';
import { Button, Card, Result } from 'antd';
import type { ReactNode } from 'react';
import { usePageTitle } from './usePageTitle';

export interface SectionPendingProps {
  /** The section's Russian name: the result title and the page title. */
  title: string;
  /** Offer a way back to the home page (blank-layout pages have no menu). */
  backHome?: boolean;
  /** Extra actions under the text. */
  extra?: ReactNode;
}

/** Honest placeholder for a section that exists in the menu but is not built yet. */
export function SectionPending({ title, backHome = false, extra }: SectionPendingProps) {
  usePageTitle(title);
  return (
    <Card variant="borderless">
      <Result
        icon={<ToolOutlined />}
        title={<span data-testid="page-title">{title}</span>}
        subTitle="Раздел в разработке"
        extra={
          extra ??
          (backHome ? (
            <Link to="/">
              <Button type="primary">На главную</Button>
            </Link>
          ) : null)
        }
      />
    </Card>
  );
}
