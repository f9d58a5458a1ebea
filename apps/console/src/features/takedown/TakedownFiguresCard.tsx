/* The takedown figures the security team reports upward: time to send, time to down (median, p90), share down within 24/48/72 h. */
import { formatNumber } from '@forpost/contract/format';
import { Card, Col, Row, Statistic, Table, Typography } from 'antd';
import { useTakedownFigures } from './api';

const hours = (h: number | null) =>
  h === null ? '—' : h < 1 ? `${Math.round(h * 60)} мин` : `${formatNumber(Math.round(h * 10) / 10)} ч`;
const pct = (x: number) => `${Math.round(x * 100)}%`;

export function TakedownFiguresCard({ companyId }: { companyId?: number }) {
  const f = useTakedownFigures(companyId);
  const d = f.data;
  if (f.isError) return null;
  return (
    <Card title="Блокировки" size="small" data-testid="takedown-figures" loading={f.isLoading}>
      {d && (
        <>
          <Row gutter={[16, 8]}>
            <Col xs={12} md={6}>
              <Statistic title="Отправлено запросов" value={formatNumber(d.sent)} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title="Ресурс недоступен" value={formatNumber(d.down)} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic
                title="До отправки (медиана / p90)"
                value={`${hours(d.time_to_send.median_hours)} / ${hours(d.time_to_send.p90_hours)}`}
              />
            </Col>
            <Col xs={12} md={6}>
              <Statistic
                title="До недоступности (медиана / p90)"
                value={`${hours(d.time_to_down.median_hours)} / ${hours(d.time_to_down.p90_hours)}`}
              />
            </Col>
            <Col span={24}>
              <Typography.Text type="secondary">
                Недоступны в течение 24 ч — {pct(d.share_down_within.h24)}, 48 ч — {pct(d.share_down_within.h48)}, 72 ч —{' '}
                {pct(d.share_down_within.h72)} отправленных
              </Typography.Text>
            </Col>
          </Row>
          {(d.by_registrar.length > 0 || d.by_hosting.length > 0) && (
            <Row gutter={16} style={{ marginTop: 12 }}>
              {(['by_registrar', 'by_hosting'] as const).map((k) => (
                <Col key={k} xs={24} xl={12}>
                  <Table
                    size="small"
                    rowKey="name"
                    pagination={false}
                    dataSource={d[k].slice(0, 5)}
                    columns={[
                      { title: k === 'by_registrar' ? 'Регистратор' : 'Сеть хостинга', dataIndex: 'name', ellipsis: true },
                      { title: 'Недоступны', dataIndex: 'count', width: 110, align: 'right' },
                      { title: 'Медиана', width: 100, align: 'right', render: (_, r) => hours(r.median_hours) },
                      { title: 'p90', width: 90, align: 'right', render: (_, r) => hours(r.p90_hours) },
                    ]}
                  />
                </Col>
              ))}
            </Row>
          )}
        </>
      )}
    </Card>
  );
}
