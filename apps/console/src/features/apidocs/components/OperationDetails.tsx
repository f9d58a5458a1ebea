import { Collapse, Descriptions, Flex, Table, Tag, Typography } from 'antd';
import { JsonView } from '../../../components/JsonView';
import {
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiMedia,
  type OpenApiParameter,
  type Operation,
  PARAM_IN,
  permissionOf,
  resolveRefs,
  typeLabel,
} from '../openapi';

const STATUS_COLORS = (status: string) =>
  status.startsWith('2') ? 'green' : status.startsWith('4') ? 'orange' : status.startsWith('5') ? 'red' : 'default';

/** A schema behind a «Схема» toggle (collapsed JSON). */
function SchemaBlock({
  label,
  media,
  doc,
}: {
  label: string;
  media: Record<string, OpenApiMedia> | undefined;
  doc: OpenApiDocument;
}) {
  const entries = Object.entries(media ?? {});
  if (!entries.length) return <Typography.Text type="secondary">Без тела</Typography.Text>;
  return (
    <Collapse
      size="small"
      items={entries.map(([type, m]) => ({
        key: type,
        label: (
          <Flex gap={8} align="center">
            <span>{label}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {type} · {typeLabel(m.schema)}
            </Typography.Text>
          </Flex>
        ),
        children: <JsonView value={resolveRefs(m.schema, doc)} maxHeight={420} />,
      }))}
    />
  );
}

/** Everything about one operation: id, permission, parameters, request and responses. */
export function OperationDetails({ operation, doc }: { operation: Operation; doc: OpenApiDocument }) {
  const { op } = operation;
  const permission = permissionOf(op);
  const params = (op.parameters ?? []).map((p) => ({ ...p, schema: resolveRefs(p.schema, doc) as JsonSchema | undefined }));
  return (
    <Flex vertical gap={16}>
      {op.description && op.description !== op.summary && (
        <Typography.Paragraph style={{ margin: 0 }}>{op.description}</Typography.Paragraph>
      )}
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        items={[
          {
            key: 'id',
            label: 'operationId',
            children: (
              <Typography.Text code copyable>
                {op.operationId ?? '—'}
              </Typography.Text>
            ),
          },
          ...(permission ? [{ key: 'perm', label: 'Право', children: <Tag color="geekblue">{permission}</Tag> }] : []),
          ...(op.deprecated ? [{ key: 'dep', label: 'Статус', children: <Tag color="red">Устарел</Tag> }] : []),
        ]}
      />
      <div>
        <Typography.Title level={5}>Параметры</Typography.Title>
        {params.length ? (
          <Table<OpenApiParameter>
            size="small"
            rowKey={(p) => `${p.in}:${p.name}`}
            pagination={false}
            dataSource={params}
            columns={[
              { title: 'Имя', dataIndex: 'name', render: (n: string) => <Typography.Text code>{n}</Typography.Text> },
              { title: 'Где', dataIndex: 'in', width: 110, render: (i: OpenApiParameter['in']) => PARAM_IN[i] ?? i },
              {
                title: 'Обязательный',
                dataIndex: 'required',
                width: 130,
                render: (r?: boolean) => (r ? <Tag color="red">да</Tag> : 'нет'),
              },
              {
                title: 'Тип',
                key: 'type',
                render: (_, p) => <Typography.Text type="secondary">{typeLabel(p.schema)}</Typography.Text>,
              },
              {
                title: 'Описание',
                key: 'desc',
                render: (_, p) =>
                  p.description ?? (p.schema?.default !== undefined ? `по умолчанию ${JSON.stringify(p.schema.default)}` : '—'),
              },
            ]}
          />
        ) : (
          <Typography.Text type="secondary">Нет</Typography.Text>
        )}
      </div>
      {op.requestBody && (
        <div>
          <Typography.Title level={5}>Тело запроса{op.requestBody.required ? '' : ' (необязательно)'}</Typography.Title>
          <SchemaBlock label="Схема запроса" media={op.requestBody.content} doc={doc} />
        </div>
      )}
      <div>
        <Typography.Title level={5}>Ответы</Typography.Title>
        <Flex vertical gap={8}>
          {Object.entries(op.responses ?? {}).map(([status, r]) => (
            <Flex key={status} gap={12} align="start">
              <Tag color={STATUS_COLORS(status)} style={{ minWidth: 44, textAlign: 'center', marginTop: 4 }}>
                {status}
              </Tag>
              <div style={{ flex: 1, minWidth: 0 }}>
                {r.content ? (
                  <SchemaBlock
                    label={r.description && r.description !== 'Default Response' ? r.description : 'Схема ответа'}
                    media={r.content}
                    doc={doc}
                  />
                ) : (
                  <Typography.Text type="secondary" style={{ lineHeight: '30px' }}>
                    {status === '204' ? 'Нет содержимого' : (r.description ?? '—')}
                  </Typography.Text>
                )}
              </div>
            </Flex>
          ))}
        </Flex>
      </div>
    </Flex>
  );
}
