/* Every field of the module's descriptor with its Russian label, formatted by type. */
import { EditOutlined, EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { groupCardNumber } from '@forpost/contract/helpers';
import type { FieldDescriptor, ModuleDescriptor } from '@forpost/contract/modules';
import { Button, Card, Descriptions, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useCan } from '../../auth/useMe';
import { useCardReveal } from '../api/mutations';
import { FieldValue, isEmpty } from '../components/values';
import { isWide } from '../model/edit';
import type { EventDetail } from '../model/types';
import { FieldsEditor } from './FieldsEditor';

/**
 * A card number: masked as the API sends it; «Показать номер» fetches the clear number from the
 * audited reveal endpoint (only with events.card_reveal in the event's company) and hides it again.
 */
function CardNumber({ m, event, field }: { m: ModuleDescriptor; event: EventDetail; field: FieldDescriptor }) {
  const canReveal = useCan('events.card_reveal', event.company_id) && m.extras.includes('card_reveal');
  const reveal = useCardReveal(m.code, event.id);
  const [clear, setClear] = useState<string | null>(null);
  const masked = event[field.key];
  if (isEmpty(masked)) return <FieldValue field={field} value={masked} mode="detail" />;
  return (
    <Space size={8} wrap>
      <Typography.Text code copyable={clear ? { text: clear } : false} style={{ fontSize: 14 }} data-testid="card-number">
        {groupCardNumber(clear ?? String(masked))}
      </Typography.Text>
      {canReveal &&
        (clear ? (
          <Button size="small" icon={<EyeInvisibleOutlined />} onClick={() => setClear(null)}>
            Скрыть
          </Button>
        ) : (
          <Tooltip title="Просмотр полного номера записывается в журнал аудита">
            <Button
              size="small"
              icon={<EyeOutlined />}
              loading={reveal.isPending}
              onClick={() => reveal.mutate(undefined, { onSuccess: (r) => setClear(r.card_number) })}
              data-testid="card-reveal"
            >
              Показать номер
            </Button>
          </Tooltip>
        ))}
    </Space>
  );
}

/** A whole row of the descriptions (for {@link isWide} values). */
const FULL_ROW = { xs: 1, sm: 1, md: 1, lg: 2, xl: 2, xxl: 2 } as const;

/** The module's fields; «Изменить» (with events.write in the event's company) turns them into a form. */
export function FieldsCard({ m, event, canWrite }: { m: ModuleDescriptor; event: EventDetail; canWrite: boolean }) {
  const [editing, setEditing] = useState(false);
  const short = m.fields.filter((f) => !isWide(f));
  const ordered = [...short, ...m.fields.filter(isWide)];
  return (
    <Card
      title={editing ? 'Сведения — изменение' : 'Сведения'}
      size="small"
      data-testid="event-fields"
      extra={
        canWrite && !editing ? (
          <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="fields-edit">
            Изменить
          </Button>
        ) : undefined
      }
    >
      {editing ? (
        <FieldsEditor m={m} event={event} onDone={() => setEditing(false)} />
      ) : (
        <Descriptions
          bordered
          size="small"
          column={{ xs: 1, sm: 1, md: 1, lg: 2, xl: 2, xxl: 2 }}
          styles={{ label: { width: '23%' }, content: { width: '27%' } }}
          items={ordered.map((f, i) => ({
            key: f.key,
            label: f.label,
            // Wide values take a whole row; so does the last short one when it would be alone in its row.
            span: isWide(f) || (i === short.length - 1 && short.length % 2 === 1) ? FULL_ROW : 1,
            children:
              f.sensitive === 'card' ? (
                <CardNumber m={m} event={event} field={f} />
              ) : (
                <FieldValue field={f} value={event[f.key]} row={event} mode="detail" />
              ),
          }))}
        />
      )}
    </Card>
  );
}
