/* An event named by its title, linking to its card, with a grey line of context under it (lists across modules). */
import type { ModuleCode } from '@forpost/contract/modules';
import { Link } from '@tanstack/react-router';
import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { sectionOfModule } from '../../shell/sections';

export function EventTitleLink({
  module,
  id,
  title,
  meta,
  testId,
}: {
  module: ModuleCode | string;
  id: number;
  title: string;
  meta: ReactNode;
  testId?: string;
}) {
  return (
    <Flex vertical gap={2} style={{ minWidth: 0 }}>
      <Link
        to="/$section/$id"
        params={{ section: sectionOfModule(module), id: String(id) }}
        data-testid={testId}
        style={{ wordBreak: 'break-word' }}
      >
        {title}
      </Link>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {meta}
      </Typography.Text>
    </Flex>
  );
}
