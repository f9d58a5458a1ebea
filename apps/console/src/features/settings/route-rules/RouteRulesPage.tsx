import { PlusOutlined } from '@ant-design/icons';
import { punycodeToUnicode } from '@forpost/contract/helpers';
import { Button, Card, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { AdminTable } from '../../../components/list/AdminTable';
import type { SearchPatch } from '../../../components/list/listSearch';
import { pageParams } from '../../../components/list/pagination';
import { RowActions } from '../../../components/list/RowActions';
import { PageHeading } from '../../../components/page/PageHeading';
import { EmptyState } from '../../../components/page/QueryState';
import type { RefListSearch } from '../search';
import { type RouteRule, useDeleteRouteRuleMutation, useRouteRulesQuery } from './api';
import { RouteRuleModal } from './RouteRuleModal';

/** A stored (encoded) target as a person reads it: the IDN host and the path decoded; the stored form on hover. */
function readableTarget(t: string): string {
  let out = t;
  try {
    out = decodeURI(t);
  } catch {
    // An undecodable escape stays as stored.
  }
  return out.replace(/^(https?:\/\/)([^/?#]+)/i, (_, scheme: string, host: string) => scheme + punycodeToUnicode(host));
}

/** /settings/redirects: redirects from old paths that are no console route (server 302/301 and the «not found» page). */
export function RouteRulesPage({
  search,
  onSearch,
}: {
  search: RefListSearch;
  onSearch: (p: SearchPatch<RefListSearch>) => void;
}) {
  const list = useRouteRulesQuery({ q: search.q, ...pageParams(search) });
  const remove = useDeleteRouteRuleMutation();
  const [editing, setEditing] = useState<RouteRule | 'new' | null>(null);

  return (
    <>
      <PageHeading
        title="Перенаправления"
        subtitle="Старые адреса, которых нет в консоли, ведут на страницу консоли или на внешний адрес (окно переходит целиком)."
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="rr-add">
            Добавить перенаправление
          </Button>
        }
      />
      <Card>
        <AdminTable<RouteRule, RefListSearch>
          query={list}
          search={search}
          onSearch={onSearch}
          paged
          data-testid="route-rules-table"
          empty={(filtered) => <EmptyState text={filtered ? 'Ничего не нашлось' : 'Перенаправлений пока нет'} />}
          columns={[
            {
              title: 'Старый путь',
              filter: { kind: 'text', key: 'q', placeholder: 'Путь или адрес' },
              dataIndex: 'path',
              width: 220,
              render: (p: string) => (
                <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
                  {p}
                </Typography.Text>
              ),
            },
            {
              title: 'Куда',
              dataIndex: 'target',
              render: (t: string, r: RouteRule) => (
                <>
                  <Tooltip title={readableTarget(t) === t ? undefined : `Отправляется как ${t}`}>
                    <Typography.Text style={{ wordBreak: 'break-all' }} data-testid="rr-target-text">
                      {readableTarget(t)}
                    </Typography.Text>
                  </Tooltip>{' '}
                  {r.external && <Tag color="orange">внешний</Tag>}
                </>
              ),
            },
            { title: 'Код', dataIndex: 'permanent', width: 90, render: (p: boolean) => (p ? '301' : '302') },
            { title: 'Комментарий', dataIndex: 'comment', render: (c: string | null) => c ?? '—' },
            {
              title: '',
              key: 'actions',
              width: 110,
              render: (_: unknown, r: RouteRule) => (
                <RowActions name={r.path} onEdit={() => setEditing(r)} onDelete={() => remove.mutateAsync(r.id)} />
              ),
            },
          ]}
        />
      </Card>
      <RouteRuleModal rule={editing === 'new' ? null : editing} open={editing !== null} onClose={() => setEditing(null)} />
    </>
  );
}
