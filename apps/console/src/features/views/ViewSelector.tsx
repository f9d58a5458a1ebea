/*
 * «Виды» of a module's list: the current view's name, the user's own views and those shared with the
 * company; «Сохранить как вид…» from the list as it is (filters, sort, columns), «Обновить вид»,
 * «По умолчанию» (opened when the list is entered without filters), «Изменить…», «Удалить».
 * Applying a view is navigating to its URL state (and taking its columns).
 */
import {
  DeleteOutlined,
  DownOutlined,
  EditOutlined,
  SaveOutlined,
  StarFilled,
  StarOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import type { ModuleDescriptor } from '@forpost/contract/modules';
import { columnsPrefKey, defaultViewPrefKey, type SavedView, viewName } from '@forpost/contract/views';
import type { MenuProps } from 'antd';
import { Button, Checkbox, Dropdown, Form, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { FormModal, useFormModal } from '../../components/form/FormModal';
import { NameField } from '../../components/form/NameField';
import { feedback } from '../../lib/feedback';
import { useMe } from '../auth/useMe';
import { useCompanyFilter } from '../company/useCompanyId';
import type { EventSearch } from '../events/model/search';
import { useDeleteView, usePreferences, usePutPreference, useSaveView, useViews } from './api';
import { isPlainSearch, sameList, searchOfView, stateOfSearch } from './viewState';

/** Sections whose default view was considered in this page load (it is applied once, on entering the list). */
const defaultConsidered = new Set<string>();

export function ViewSelector({
  m,
  search,
  columns,
  onSearch,
}: {
  m: ModuleDescriptor;
  search: EventSearch;
  columns: readonly string[];
  onSearch: (next: EventSearch) => void;
}) {
  const { message, modal } = feedback;
  const me = useMe();
  const companyId = useCompanyFilter();
  const views = useViews(m.code, companyId);
  const prefs = usePreferences();
  const putPref = usePutPreference();
  const save = useSaveView(m.code);
  const remove = useDeleteView(m.code);
  const [editing, setEditing] = useState<SavedView | 'new' | null>(null);

  const current = stateOfSearch(m, search, columns);
  const list = views.data ?? [];
  const active = list.find((v) => sameList(v.state, current));
  const defaultId = prefs.data?.[defaultViewPrefKey(m.code)];

  const apply = (v: SavedView) => {
    onSearch(searchOfView(m, v.state, search));
    if (v.state.columns?.length) putPref.mutate({ key: columnsPrefKey(m.code), value: v.state.columns });
  };

  // The default view opens when the list is entered without filters (once per page load and module).
  const ready = views.isSuccess && prefs.isSuccess;
  // biome-ignore lint/correctness/useExhaustiveDependencies: decided once, when the views and preferences arrive
  useEffect(() => {
    if (!ready || defaultConsidered.has(m.code)) return;
    defaultConsidered.add(m.code);
    const v = list.find((x) => x.id === defaultId);
    if (v && isPlainSearch(m, search)) apply(v);
  }, [ready]);

  // The company a view is shared with: the one selected in the header, or the user's only company.
  const shareCompany = companyId ?? (me.companies.length === 1 ? me.companies[0]?.id : undefined);

  const personal = list.filter((v) => v.owner_id === me.id);
  const shared = list.filter((v) => v.owner_id !== me.id || v.shared);
  const entry = (v: SavedView) => ({
    key: `view:${v.id}`,
    label: (
      <span data-testid={`view-${v.id}`}>
        {v.name}
        {v.shared && v.company_name && me.role !== 'COMPANY_USER' ? (
          <Typography.Text type="secondary"> · {v.company_name}</Typography.Text>
        ) : null}
      </span>
    ),
    icon: v.id === defaultId ? <StarFilled aria-label="По умолчанию" /> : undefined,
  });
  const items: MenuProps['items'] = [
    ...(personal.filter((v) => !v.shared).length
      ? [{ key: 'mine', type: 'group' as const, label: 'Мои виды', children: personal.filter((v) => !v.shared).map(entry) }]
      : []),
    ...(shared.length ? [{ key: 'shared', type: 'group' as const, label: 'Общие', children: shared.map(entry) }] : []),
    ...(list.length ? [{ type: 'divider' as const }] : []),
    { key: 'save-as', icon: <SaveOutlined />, label: 'Сохранить как вид…' },
    ...(active?.can_edit ? [{ key: 'update', icon: <SyncOutlined />, label: 'Обновить вид' }] : []),
    ...(active
      ? [
          {
            key: 'default',
            icon: active.id === defaultId ? <StarFilled /> : <StarOutlined />,
            label: active.id === defaultId ? 'Не открывать по умолчанию' : 'По умолчанию',
          },
        ]
      : []),
    ...(active?.can_edit
      ? [
          { key: 'edit', icon: <EditOutlined />, label: 'Изменить…' },
          { key: 'delete', icon: <DeleteOutlined />, label: 'Удалить вид', danger: true },
        ]
      : []),
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key.startsWith('view:')) {
      const v = list.find((x) => `view:${x.id}` === key);
      if (v) apply(v);
    } else if (key === 'save-as') setEditing('new');
    else if (key === 'edit' && active) setEditing(active);
    else if (key === 'update' && active)
      save.mutate({ id: active.id, state: current }, { onSuccess: () => void message.success(`Вид «${active.name}» обновлён`) });
    else if (key === 'default' && active)
      putPref.mutate({ key: defaultViewPrefKey(m.code), value: active.id === defaultId ? null : active.id });
    else if (key === 'delete' && active)
      modal.confirm({
        title: `Удалить вид «${active.name}»?`,
        content: active.shared ? 'Вид общий: он пропадёт у всех пользователей компании.' : undefined,
        okText: 'Удалить',
        okButtonProps: { danger: true },
        cancelText: 'Отмена',
        onOk: () => remove.mutateAsync(active.id).then(() => void message.success('Вид удалён')),
      });
  };

  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomLeft">
        <Button data-testid="views-open" style={{ maxWidth: 260 }}>
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} data-testid="view-current">
            {active ? active.name : 'Виды'}
          </span>
          <DownOutlined style={{ fontSize: 10 }} />
        </Button>
      </Dropdown>
      <ViewModal
        view={editing}
        shareCompany={shareCompany}
        onClose={() => setEditing(null)}
        onSubmit={async (v) => {
          const saved = await save.mutateAsync(
            editing === 'new' || editing === null
              ? { name: v.name, shared: v.shared, company_id: v.shared ? shareCompany : null, state: current }
              : {
                  id: editing.id,
                  name: v.name,
                  shared: v.shared,
                  ...(v.shared && !editing.company_id ? { company_id: shareCompany } : {}),
                },
          );
          message.success(editing === 'new' ? `Вид «${saved.name}» сохранён` : 'Вид изменён');
        }}
      />
    </>
  );
}

interface ViewForm {
  name: string;
  shared: boolean;
}

function ViewModal({
  view,
  shareCompany,
  onClose,
  onSubmit,
}: {
  view: SavedView | 'new' | null;
  shareCompany: number | undefined;
  onClose: () => void;
  onSubmit: (v: ViewForm) => Promise<void>;
}) {
  const { form, formError, reset, submit } = useFormModal<ViewForm>();
  const [saving, setSaving] = useState(false);
  const open = view !== null;
  const isNew = view === 'new';
  useEffect(() => {
    if (view) reset(view === 'new' ? { name: '', shared: false } : { name: view.name, shared: view.shared });
  }, [view, reset]);
  const canShare = shareCompany !== undefined || (view !== 'new' && view?.company_id != null);
  const onOk = () =>
    submit(
      async (v) => {
        setSaving(true);
        try {
          await onSubmit({ name: v.name.trim(), shared: Boolean(v.shared) });
        } finally {
          setSaving(false);
        }
        onClose();
      },
      ['name', 'shared'],
    );
  return (
    <FormModal<ViewForm>
      open={open}
      title={isNew ? 'Сохранить как вид' : 'Изменить вид'}
      isNew={isNew}
      okText="Сохранить"
      saving={saving}
      width={480}
      form={form}
      formError={formError}
      formProps={{ requiredMark: false, onFinish: () => void onOk() }}
      onOk={() => void onOk()}
      onClose={onClose}
    >
      <NameField schema={viewName} maxLength={100} placeholder="Например: Новые критичные" />
      <Form.Item
        name="shared"
        valuePropName="checked"
        extra={canShare ? 'Вид увидят все пользователи компании.' : 'Чтобы поделиться видом, выберите компанию в заголовке.'}
        style={{ marginBottom: 0 }}
      >
        <Checkbox disabled={!canShare} data-testid="view-shared">
          Общий для компании
        </Checkbox>
      </Form.Item>
    </FormModal>
  );
}
