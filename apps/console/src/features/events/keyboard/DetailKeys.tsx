/*
 * The event card's keyboard and its «предыдущее / следующее» buttons: steps through the list the
 * user came from (same filter and sort), s/p/a change the status, priority or assignee as on the
 * list's marked row (useTriageKeys; «Отменить» after), c jumps to the comment box; «?» lists the keys.
 */

import { LeftOutlined, QuestionCircleOutlined, RightOutlined } from '@ant-design/icons';
import type { ModuleCode } from '@forpost/contract/modules';
import { useNavigate } from '@tanstack/react-router';
import { Button, Flex, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { formatNumber } from '../../../lib/format';
import type { EventRefs } from '../api/queries';
import { lastListSearch } from '../model/search';
import type { EventDetail } from '../model/types';
import { KeysHelp } from './KeysHelp';
import { DETAIL_KEYS, useShortcuts } from './keys';
import { useNeighbours } from './neighbours';
import { useTriageKeys } from './useTriageKeys';

/** Opens a control another block owns (the assignee picker) by its marker; false when absent. */
function openControl(selector: string): boolean {
  const el = document.querySelector<HTMLElement>(selector);
  if (!el) return false;
  el.scrollIntoView({ block: 'center' });
  const input = el.matches('input, textarea, button') ? el : el.querySelector<HTMLElement>('input, textarea, button');
  (input ?? el).focus();
  if (el.matches('button')) el.click();
  else el.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  return true;
}

export function DetailKeys({
  section,
  event,
  refs,
  canWrite,
}: {
  section: string;
  event: EventDetail;
  refs: EventRefs;
  canWrite: boolean;
}) {
  const navigate = useNavigate();
  const nb = useNeighbours(section, event.id);
  const [help, setHelp] = useState(false);
  const [stepping, setStepping] = useState(false);

  const go = async (dir: 1 | -1) => {
    if (stepping) return;
    setStepping(true);
    try {
      const id = await nb.step(dir);
      if (id !== null) void navigate({ to: '/$section/$id', params: { section, id: String(id) } });
    } finally {
      setStepping(false);
    }
  };

  const triage = useTriageKeys({
    code: event.module as ModuleCode,
    refs,
    canWrite,
    target: event,
    // The card's own assignee picker (triage block), searched as one types.
    assign: () => openControl('[data-keyboard="assign"], [data-testid="triage-assignee_id"]'),
  });

  useShortcuts((key) => {
    if (triage.onKey(key)) return true;
    switch (key) {
      case 'j':
      case 'ArrowRight':
        void go(1);
        return true;
      case 'k':
      case 'ArrowLeft':
        void go(-1);
        return true;
      case 'c':
        return openControl('[data-testid="comment-input"]');
      case 'u':
      case 'Escape':
        void navigate({ to: '/$section', params: { section }, search: lastListSearch(section) });
        return true;
      case '?':
        setHelp(true);
        return true;
      default:
        return false;
    }
  });

  return (
    <>
      <Space.Compact>
        <Tooltip title={nb.position ? 'Предыдущее (k)' : 'Откройте событие из списка, чтобы листать его'}>
          <Button
            icon={<LeftOutlined />}
            disabled={!nb.hasPrev}
            loading={stepping}
            onClick={() => void go(-1)}
            aria-label="Предыдущее событие"
            data-testid="event-prev"
          />
        </Tooltip>
        <Tooltip title={nb.position ? 'Следующее (j)' : 'Откройте событие из списка, чтобы листать его'}>
          <Button
            icon={<RightOutlined />}
            disabled={!nb.hasNext}
            onClick={() => void go(1)}
            aria-label="Следующее событие"
            data-testid="event-next"
          />
        </Tooltip>
      </Space.Compact>
      {nb.position && (
        <Flex align="center">
          <Typography.Text type="secondary" data-testid="event-position">
            {formatNumber(nb.position.index)} из {formatNumber(nb.position.total)}
          </Typography.Text>
        </Flex>
      )}
      <Tooltip title="Горячие клавиши (?)">
        <Button icon={<QuestionCircleOutlined />} onClick={() => setHelp(true)} aria-label="Горячие клавиши" />
      </Tooltip>
      {triage.node}
      <KeysHelp open={help} onClose={() => setHelp(false)} keys={DETAIL_KEYS} title="карточка события" />
    </>
  );
}
