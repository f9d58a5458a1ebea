import { Button, Flex } from 'antd';
import type { ReactNode } from 'react';

/** The filter row above a list's table; «Сбросить фильтры» at its end while a filter is set (`onReset` given). */
export function FilterBar({ onReset, testId, children }: { onReset?: () => void; testId?: string; children: ReactNode }) {
  return (
    <Flex gap={8} wrap align="center" style={{ marginBottom: 16 }} data-testid={testId}>
      {children}
      {onReset && (
        <Button type="link" onClick={onReset}>
          Сбросить фильтры
        </Button>
      )}
    </Flex>
  );
}
