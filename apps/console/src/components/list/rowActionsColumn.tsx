import type { ComponentProps } from 'react';
import { RowActions } from './RowActions';

/** The last, right-pinned table column with a row's edit / delete-with-confirmation buttons. */
export function rowActionsColumn<T>(actions: (row: T) => ComponentProps<typeof RowActions>, width = 100) {
  return {
    title: '',
    key: 'actions',
    width,
    fixed: 'right' as const,
    render: (_: unknown, row: T) => <RowActions {...actions(row)} />,
  };
}
