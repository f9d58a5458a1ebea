import { Link, type LinkProps } from '@tanstack/react-router';
import { Button, Space } from 'antd';
import type { ReactNode } from 'react';

/** The buttons under a page form: submit (busy while saving) and «Отмена» back to `cancelTo`. */
export function SubmitButtons({
  text,
  saving,
  cancelTo,
  icon,
  testId,
}: {
  text: string;
  saving: boolean;
  cancelTo: LinkProps['to'];
  icon?: ReactNode;
  testId?: string;
}) {
  return (
    <Space>
      <Button type="primary" htmlType="submit" icon={icon} loading={saving} data-testid={testId}>
        {text}
      </Button>
      <Link to={cancelTo}>
        <Button>Отмена</Button>
      </Link>
    </Space>
  );
}
