import { DeleteOutlined, EditOutlined, MergeCellsOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Popconfirm, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { ColorTag } from '../../../components/ColorTag';
import { AdminTable } from '../../../components/list/AdminTable';
import type { SearchPatch } from '../../../components/list/listSearch';
import { PageHeading } from '../../../components/page/PageHeading';
import { EmptyState } from '../../../components/page/QueryState';
import { eventsCount, formatDate } from '../../../lib/format';
import { useCan } from '../../auth/useMe';
import { useDeleteTagMutation } from '../api/mutations';
import { type Tag, useTagsQuery, useTagUsageQuery } from '../api/queries';
import type { TagsSearch } from '../search';
import { MergeTagsModal } from './MergeTagsModal';
import { TagModal } from './TagModal';

/** /settings/tags: tags with their colour and how many events carry them; create, edit, merge, delete. */
export function TagsPage({ search, onSearch }: { search: TagsSearch; onSearch: (p: SearchPatch<TagsSearch>) => void }) {
  const canManage = useCan('settings.manage');
  const list = useTagsQuery(search.q);
  const usage = useTagUsageQuery();
  const all = useTagsQuery();
  const remove = useDeleteTagMutation();
  const [editing, setEditing] = useState<Tag | 'new' | null>(null);
  const [merging, setMerging] = useState<{ sourceId?: number } | null>(null);
  const countOf = (id: number) => usage.data?.get(id) ?? 0;
  const items = useMemo(() => list.data?.items ?? [], [list.data]);

  return (
    <>
      <PageHeading
        title="Теги"
        subtitle="Метки событий: общий справочник для всех компаний и модулей"
        extra={
          canManage && (
            <>
              <Button icon={<MergeCellsOutlined />} onClick={() => setMerging({})} disabled={(all.data?.items.length ?? 0) < 2}>
                Объединить теги
              </Button>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
                Добавить тег
              </Button>
            </>
          )
        }
      />
      <Card>
        <AdminTable<Tag, TagsSearch>
          query={list}
          search={search}
          onSearch={onSearch}
          data-testid="tags-table"
          pagination={items.length > 50 ? { pageSize: 50, showSizeChanger: false, showTotal: (t) => `Всего: ${t}` } : false}
          empty={(filtered) => (
            <EmptyState
              text={filtered ? 'Ничего не нашлось' : 'Тегов пока нет'}
              action={
                !filtered && canManage ? (
                  <Button type="primary" onClick={() => setEditing('new')}>
                    Добавить тег
                  </Button>
                ) : undefined
              }
            />
          )}
          columns={[
            {
              title: 'Тег',
              dataIndex: 'name',
              filter: { kind: 'text', key: 'q', placeholder: 'Название тега' },
              render: (name: string, t) => (
                <Flex align="center" gap={10}>
                  <span
                    aria-hidden
                    style={{
                      width: 14,
                      height: 14,
                      borderRadius: 4,
                      background: t.color,
                      flex: 'none',
                      boxShadow: 'inset 0 0 0 1px rgba(0,0,0,.12)',
                    }}
                  />
                  <ColorTag color={t.color} style={{ marginInlineEnd: 0 }}>
                    {name}
                  </ColorTag>
                </Flex>
              ),
            },
            {
              title: 'Цвет',
              dataIndex: 'color',
              width: 130,
              render: (c: string) => <Typography.Text code>{c}</Typography.Text>,
            },
            {
              title: 'Использований',
              key: 'usage',
              width: 170,
              align: 'right',
              localSort: (a, b) => countOf(a.id) - countOf(b.id),
              render: (_, t) =>
                usage.isPending ? (
                  <Typography.Text type="secondary">…</Typography.Text>
                ) : usage.isError ? (
                  <Typography.Text type="secondary">—</Typography.Text>
                ) : (
                  <span data-testid={`tag-usage-${t.id}`}>{eventsCount(countOf(t.id))}</span>
                ),
            },
            { title: 'Создан', dataIndex: 'created_at', width: 120, render: (d: string) => formatDate(d) },
            ...(canManage
              ? [
                  {
                    title: '',
                    key: 'actions',
                    width: 150,
                    render: (_: unknown, t: Tag) => (
                      <Flex gap={4} justify="end">
                        <Tooltip title="Изменить">
                          <Button
                            type="text"
                            icon={<EditOutlined />}
                            aria-label={`Изменить тег ${t.name}`}
                            onClick={() => setEditing(t)}
                          />
                        </Tooltip>
                        <Tooltip title="Объединить с другим тегом">
                          <Button
                            type="text"
                            icon={<MergeCellsOutlined />}
                            aria-label={`Объединить тег ${t.name}`}
                            onClick={() => setMerging({ sourceId: t.id })}
                          />
                        </Tooltip>
                        <Popconfirm
                          title={`Удалить тег «${t.name}»?`}
                          description={
                            countOf(t.id) > 0
                              ? `Тег снимется с ${eventsCount(countOf(t.id))}.`
                              : 'Тег не используется в событиях.'
                          }
                          okText="Удалить"
                          okButtonProps={{ danger: true }}
                          cancelText="Отмена"
                          onConfirm={() => remove.mutateAsync(t.id)}
                        >
                          <Button
                            type="text"
                            danger
                            icon={<DeleteOutlined />}
                            aria-label={`Удалить тег ${t.name}`}
                            title="Удалить"
                          />
                        </Popconfirm>
                      </Flex>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Card>
      <TagModal tag={editing === 'new' ? null : editing} open={editing !== null} onClose={() => setEditing(null)} />
      <MergeTagsModal
        open={merging !== null}
        sourceId={merging?.sourceId}
        tags={all.data?.items ?? []}
        countOf={countOf}
        onClose={() => setMerging(null)}
      />
    </>
  );
}
