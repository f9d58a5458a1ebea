/*
 * «Назначить исполнителя»: one dialog for one event or many (the list's bulk bar, the event card, the
 * keyboard triage — it binds a key to `open`). The caller applies the choice: a user id, or null to
 * unassign.
 */
import type { ModuleCode } from '@forpost/contract/modules';
import { Button, Flex, Modal, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useMe } from '../../auth/useMe';
import { AssigneeSelect, type SelectRefLike } from './AssigneeSelect';

export function AssignDialog({
  open,
  code,
  companyId,
  subject,
  current = null,
  currentName,
  pending,
  onAssign,
  onCancel,
}: {
  open: boolean;
  code: ModuleCode;
  /** The events' company (null: several, or unknown — staff then pick among staff). */
  companyId: number | null;
  /** What is assigned («Для: 3 события»). */
  subject?: string;
  current?: number | null;
  currentName?: string | null;
  pending?: boolean;
  onAssign: (assigneeId: number | null) => void;
  onCancel: () => void;
}) {
  const me = useMe();
  const [value, setValue] = useState<number | null>(current);
  const select = useRef<SelectRefLike>(null);
  useEffect(() => {
    if (open) setValue(current);
  }, [open, current]);
  return (
    <Modal
      open={open}
      title="Назначить исполнителя"
      onCancel={onCancel}
      destroyOnHidden
      width={600}
      // Focused once shown (not while the dialog zooms in): the keyboard goes straight to the search.
      afterOpenChange={(shown) => {
        if (shown) select.current?.focus();
      }}
      footer={
        <Flex justify="space-between" wrap gap={8}>
          <Flex gap={8}>
            <Button onClick={() => onAssign(me.id)} disabled={pending} data-testid="assign-me">
              Назначить меня
            </Button>
            <Button onClick={() => onAssign(null)} disabled={pending} data-testid="assign-none">
              Снять исполнителя
            </Button>
          </Flex>
          <Flex gap={8}>
            <Button onClick={onCancel}>Отмена</Button>
            <Button
              type="primary"
              onClick={() => onAssign(value)}
              disabled={value === null}
              loading={pending}
              data-testid="assign-ok"
            >
              Назначить
            </Button>
          </Flex>
        </Flex>
      }
    >
      {subject && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {subject}
        </Typography.Paragraph>
      )}
      <AssigneeSelect
        code={code}
        companyId={companyId}
        value={value}
        currentName={currentName}
        onChange={setValue}
        selectRef={select}
        testId="assign-dialog-select"
      />
    </Modal>
  );
}
