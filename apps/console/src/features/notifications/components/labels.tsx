import { MAILING_FREQUENCY_LABELS, type Mailing } from '@forpost/contract/mailings';
import { Tag, Tooltip } from 'antd';
import { formatHour, WEEKDAYS_RU_SHORT } from '../../../lib/format';

/** «Ежедневная сводка, 09:00» · «Сразу». */
export function scheduleText(p: Mailing['params']): string {
  const f = MAILING_FREQUENCY_LABELS[p.frequency];
  if (p.frequency === 'daily') return `${f}, ${formatHour(p.hour)}`;
  if (p.frequency === 'weekly') return `${f}, ${WEEKDAYS_RU_SHORT[p.weekday - 1]} ${formatHour(p.hour)}`;
  return f;
}

export function MailingStatusTag({ m }: { m: Pick<Mailing, 'is_active' | 'is_suspended'> }) {
  if (m.is_suspended)
    return (
      <Tooltip title="Компания отключена — письма не отправляются">
        <Tag color="orange">Приостановлена</Tag>
      </Tooltip>
    );
  return m.is_active ? <Tag color="green">Активна</Tag> : <Tag>Выключена</Tag>;
}
