import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Flex, Popconfirm, Tooltip } from 'antd';
import type { ReactNode } from 'react';

/** Edit / delete buttons of a table row; delete asks first. The API's refusal (e.g. «используется в событиях») is toasted by the HTTP client. */
export function RowActions({
  name,
  onEdit,
  onDelete,
  deleteText,
  extra,
}: {
  name: string;
  onEdit?: () => void;
  onDelete?: () => Promise<unknown>;
  deleteText?: ReactNode;
  extra?: ReactNode;
}) {
  return (
    <Flex gap={4} justify="end">
      {extra}
      {onEdit && (
        <Tooltip title="Изменить">
          <Button type="text" icon={<EditOutlined />} aria-label={`Изменить «${name}»`} onClick={onEdit} />
        </Tooltip>
      )}
      {onDelete && (
        <Popconfirm
          title={`Удалить «${name}»?`}
          description={deleteText}
          okText="Удалить"
          okButtonProps={{ danger: true }}
          cancelText="Отмена"
          onConfirm={() => onDelete().catch(() => undefined)}
        >
          {/* No tooltip here: it would cover the confirmation. */}
          <Button type="text" danger icon={<DeleteOutlined />} aria-label={`Удалить «${name}»`} title="Удалить" />
        </Popconfirm>
      )}
    </Flex>
  );
}
