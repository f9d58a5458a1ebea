import { ArrowLeftOutlined, BookOutlined, FileTextOutlined, SearchOutlined } from '@ant-design/icons';
import { API_KEY_PREFIX } from '@forpost/contract/apikeys';
import { Link } from '@tanstack/react-router';
import { Alert, Anchor, Badge, Card, Col, Collapse, Empty, Flex, Input, Row, Skeleton, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { JsonView } from '../../components/JsonView';
import { LoadError } from '../../components/page/QueryState';
import { API_PREFIX } from '../../lib/http';
import { BlankLayout } from '../shell/BlankLayout';
import { PRODUCT_NAME, usePageTitle } from '../shell/usePageTitle';
import { useApiDocQuery } from './api/queries';
import { OperationDetails } from './components/OperationDetails';
import { groupOperations, METHOD_COLORS, matches, type OpenApiDocument, type Operation } from './openapi';

const TITLE = 'Документация API';

const ERROR_EXAMPLE = {
  statusCode: 403,
  statusMessage: 'Forbidden',
  message: 'У вас нет прав для доступа',
};

function HowToAuth() {
  const origin = window.location.origin;
  const curl = `curl -H "Authorization: Bearer ${API_KEY_PREFIX}ваш_секрет" \\\n  "${origin}${API_PREFIX}/companies?page=1&page_size=20"`;
  return (
    <Card title="Как авторизоваться" id="auth-intro" data-testid="apidocs-intro">
      <Row gutter={[24, 16]}>
        <Col xs={24} lg={12}>
          <ol style={{ paddingInlineStart: 20, margin: 0, lineHeight: 1.8 }}>
            <li>
              Создайте ключ в разделе <Link to="/api-keys">«API-ключи»</Link>: выберите компанию и роли (доступ к модулям на
              чтение или запись). Секрет показывается один раз — сохраните его.
            </li>
            <li>
              Передавайте секрет в каждом запросе в заголовке{' '}
              <Typography.Text code>Authorization: Bearer {API_KEY_PREFIX}…</Typography.Text>
            </li>
            <li>
              Базовый адрес — <Typography.Text code>{origin + API_PREFIX}</Typography.Text>. Списки принимают{' '}
              <Typography.Text code>?page=1&amp;page_size=20&amp;sort=-created_at</Typography.Text>, массивы в запросе — через
              запятую (<Typography.Text code>status=1,2</Typography.Text>), даты — ISO 8601. Ответ списка:{' '}
              <Typography.Text code>{'{items, total, page, page_size}'}</Typography.Text>.
            </li>
            <li>
              Ключ видит только данные своей компании и никогда не получает больше прав, чем у владельца. Перевыпуск секрета сразу
              отключает старый.
            </li>
          </ol>
        </Col>
        <Col xs={24} lg={12}>
          <Flex vertical gap={12}>
            <div>
              <Flex justify="space-between" align="center" style={{ marginBottom: 4 }}>
                <Typography.Text strong>Пример запроса</Typography.Text>
                <CopyButton text={curl} size="small" />
              </Flex>
              <pre
                style={{
                  margin: 0,
                  padding: '8px 12px',
                  background: '#0f1b3d',
                  color: '#e6ebff',
                  borderRadius: 6,
                  fontSize: 12,
                  overflowX: 'auto',
                }}
                data-testid="apidocs-curl"
              >
                {curl}
              </pre>
            </div>
            <div>
              <Typography.Text strong>Ошибки</Typography.Text>
              <Typography.Paragraph type="secondary" style={{ margin: '4px 0' }}>
                Любая ошибка — JSON такого вида; <Typography.Text code>message</Typography.Text> — по-русски, его можно показывать
                пользователю. 401 — ключ неверный, отозван или истёк; 403 — нет прав; 404 — не найдено; 429 — слишком много
                запросов.
              </Typography.Paragraph>
              <JsonView value={{ ...ERROR_EXAMPLE, data: null }} />
            </div>
          </Flex>
        </Col>
      </Row>
    </Card>
  );
}

function OperationLabel({ o }: { o: Operation }) {
  return (
    <Flex gap={12} align="center" style={{ minWidth: 0 }}>
      <Tag color={METHOD_COLORS[o.method]} style={{ width: 64, textAlign: 'center', fontWeight: 600, marginInlineEnd: 0 }}>
        {o.method.toUpperCase()}
      </Tag>
      <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
        {o.path}
      </Typography.Text>
      <Typography.Text type="secondary" ellipsis style={{ minWidth: 0 }}>
        {o.op.summary}
      </Typography.Text>
    </Flex>
  );
}

function Groups({ doc, filter }: { doc: OpenApiDocument; filter: string }) {
  const groups = useMemo(() => groupOperations(doc), [doc]);
  const shown = groups
    .map((g) => ({ ...g, operations: g.operations.filter((o) => matches(o, filter)) }))
    .filter((g) => g.operations.length);
  if (!shown.length) return <Empty description="Ничего не нашлось" />;
  return (
    <Row gutter={24}>
      <Col xs={0} lg={5}>
        <Anchor
          offsetTop={16}
          items={[
            { key: 'auth-intro', href: '#auth-intro', title: 'Как авторизоваться' },
            ...shown.map((g) => ({
              key: g.tag,
              href: `#tag-${g.tag}`,
              title: (
                <Flex justify="space-between" gap={8}>
                  <span>{g.title}</span>
                  <Badge count={g.operations.length} overflowCount={9999} color="#d9d9d9" style={{ color: '#595959' }} />
                </Flex>
              ),
            })),
          ]}
        />
      </Col>
      <Col xs={24} lg={19}>
        <Flex vertical gap={16}>
          {shown.map((g) => (
            <Card
              key={g.tag}
              id={`tag-${g.tag}`}
              title={
                <Flex gap={8} align="center">
                  <span>{g.title}</span>
                  {g.title !== g.tag && (
                    <Typography.Text type="secondary" style={{ fontWeight: 400, fontSize: 12 }}>
                      {g.tag}
                    </Typography.Text>
                  )}
                </Flex>
              }
              size="small"
              data-testid={`apidocs-group-${g.tag}`}
            >
              <Collapse
                ghost
                items={g.operations.map((o) => ({
                  key: o.key,
                  label: <OperationLabel o={o} />,
                  children: <OperationDetails operation={o} doc={doc} />,
                }))}
              />
            </Card>
          ))}
        </Flex>
      </Col>
    </Row>
  );
}

/** /api-docs (blank layout): the server's OpenAPI document, grouped by area, with an auth intro. */
export function ApiDocsPage() {
  usePageTitle(TITLE);
  const doc = useApiDocQuery();
  const [filter, setFilter] = useState('');
  const count = useMemo(
    () => (doc.data ? Object.values(doc.data.paths ?? {}).reduce((n, ops) => n + Object.keys(ops ?? {}).length, 0) : 0),
    [doc.data],
  );

  return (
    <BlankLayout centered={false}>
      <div style={{ width: '100%', maxWidth: 1280, margin: '0 auto' }}>
        <Flex justify="space-between" align="center" wrap gap={16} style={{ marginBottom: 16 }}>
          <div>
            <Link to="/" style={{ display: 'inline-block', marginBottom: 8 }}>
              <ArrowLeftOutlined /> В консоль
            </Link>
            <Flex align="center" gap={12}>
              <BookOutlined style={{ fontSize: 28, color: '#2f54eb' }} />
              <div>
                <Typography.Title level={2} style={{ margin: 0 }} data-testid="page-title">
                  {TITLE}
                </Typography.Title>
                <Typography.Text type="secondary">
                  {doc.data
                    ? `${doc.data.info.title} · версия ${doc.data.info.version} · OpenAPI ${doc.data.openapi} · операций: ${count}`
                    : `API «${PRODUCT_NAME}»`}
                </Typography.Text>
              </div>
            </Flex>
          </div>
          <Flex gap={12} align="center">
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder="Путь, описание или operationId"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              style={{ width: 320 }}
              aria-label="Поиск по документации"
            />
            <a href={`${API_PREFIX}/openapi.json`} target="_blank" rel="noreferrer">
              <FileTextOutlined /> openapi.json
            </a>
          </Flex>
        </Flex>
        <Flex vertical gap={16}>
          <HowToAuth />
          {doc.isLoading && (
            <Card>
              <Skeleton active paragraph={{ rows: 10 }} />
            </Card>
          )}
          {doc.isError && (
            <Card>
              <LoadError error={doc.error} onRetry={() => void doc.refetch()} title="Не удалось загрузить описание API" />
            </Card>
          )}
          {doc.data && Object.keys(doc.data.paths ?? {}).length === 0 && (
            <Alert type="info" showIcon title="В описании API нет операций" />
          )}
          {doc.data && <Groups doc={doc.data} filter={filter} />}
        </Flex>
      </div>
    </BlankLayout>
  );
}
