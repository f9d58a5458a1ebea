import { PlusOutlined } from '@ant-design/icons';
import { mediaTypeCreateRequest } from '@forpost/contract/events-extras';
import { Button, Card } from 'antd';
import { useState } from 'react';
import { NameModal } from '../../../components/form/NameModal';
import { AdminTable } from '../../../components/list/AdminTable';
import type { SearchPatch } from '../../../components/list/listSearch';
import { pageParams } from '../../../components/list/pagination';
import { RowActions } from '../../../components/list/RowActions';
import { PageHeading } from '../../../components/page/PageHeading';
import { EmptyState } from '../../../components/page/QueryState';
import { useCan } from '../../auth/useMe';
import { useDeleteMediaTypeMutation, useSaveMediaTypeMutation } from '../api/mutations';
import { type MediaType, useMediaTypesQuery } from '../api/queries';
import type { RefListSearch } from '../search';

/** /settings/media-types: the media types of the «СМИ» module; a type used by events cannot be deleted. */
export function MediaTypesPage({
  search,
  onSearch,
}: {
  search: RefListSearch;
  onSearch: (p: SearchPatch<RefListSearch>) => void;
}) {
  const canManage = useCan('settings.manage');
  const list = useMediaTypesQuery({ q: search.q, ...pageParams(search) });
  const save = useSaveMediaTypeMutation();
  const remove = useDeleteMediaTypeMutation();
  const [editing, setEditing] = useState<MediaType | 'new' | null>(null);

  return (
    <>
      <PageHeading
        title="Типы СМИ"
        subtitle="Справочник для событий модуля «СМИ»: федеральные и отраслевые издания, телеканалы, блоги и т. п."
        extra={
          canManage && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              Добавить тип
            </Button>
          )
        }
      />
      <Card>
        <AdminTable<MediaType, RefListSearch>
          query={list}
          search={search}
          onSearch={onSearch}
          paged
          data-testid="media-types-table"
          empty={(filtered) => <EmptyState text={filtered ? 'Ничего не нашлось' : 'Типов СМИ пока нет'} />}
          columns={[
            { title: 'Название', filter: { kind: 'text', key: 'q', placeholder: 'Название типа' }, dataIndex: 'name' },
            ...(typeof list.data?.items[0]?.events_count === 'number'
              ? [{ title: 'Событий', dataIndex: 'events_count', width: 140, align: 'right' as const }]
              : []),
            ...(canManage
              ? [
                  {
                    title: '',
                    key: 'actions',
                    width: 110,
                    render: (_: unknown, t: MediaType) => (
                      <RowActions
                        name={t.name}
                        onEdit={() => setEditing(t)}
                        onDelete={() => remove.mutateAsync(t.id)}
                        deleteText="Тип, который указан в событиях, удалить нельзя."
                      />
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Card>
      <NameModal
        open={editing !== null}
        title={editing === 'new' ? 'Новый тип СМИ' : `Тип СМИ «${editing?.name ?? ''}»`}
        initial={editing === 'new' || editing === null ? undefined : editing.name}
        schema={mediaTypeCreateRequest.shape.name}
        maxLength={100}
        placeholder="Например: Интернет-издание"
        successText={editing === 'new' ? 'Тип СМИ добавлен' : 'Тип СМИ сохранён'}
        onSubmit={(name) => save.mutateAsync({ id: editing === 'new' || editing === null ? undefined : editing.id, name })}
        onClose={() => setEditing(null)}
      />
    </>
  );
}
