import { Button, Flex } from 'antd';
import type { ReactNode } from 'react';

/** The filter row above a list's table; «Сбросить фильтры» at its end while a filter is set (`onReset` given). */
export function FilterBar({
  onReset,
  testId,
  marginBottom = 16,
  children,
}: {
  onReset?: () => void;
  testId?: string;
  marginBottom?: number;
  children: ReactNode;
}) {
  return (
    <Flex gap={8} wrap align="center" style={{ marginBottom }} data-testid={testId}>
      {children}
      {onReset && (
        <Button type="link" onClick={onReset}>
          Сбросить фильтры
        </Button>
      )}
    </Flex>
  );
}
