/* Repositories: files found in the repository (path, link, matched fragment) — add, edit, delete. */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { MSG } from '@forpost/contract/messages';
import { urlSchema } from '@forpost/contract/validation';
import { Button, Card, Empty, Flex, Form, Input, Popconfirm, Skeleton, Table, Typography } from 'antd';
import { useState } from 'react';
import { FormModal, useFormModal } from '../../../components/form/FormModal';
import { EMPTY_VALUE, formatDateTime } from '../../../lib/format';
import { useRepoFileMutations } from '../api/mutations';
import { useRepoFiles } from '../api/queries';
import { SafeLink, safeHref } from '../components/values';
import type { RepoFile, RepoFileInput } from '../model/types';
import type { ExtrasProps } from './types';

interface FormValues {
  path: string;
  url?: string;
  matched?: string;
}

export function RepoFiles({ m, event, canWrite }: ExtrasProps) {
  const files = useRepoFiles(m.code, event.id);
  const { add, edit, remove } = useRepoFileMutations(m.code, event.id);
  const [editing, setEditing] = useState<RepoFile | 'new' | null>(null);
  const { form, formError, reset, submit } = useFormModal<FormValues>();

  const open = (f: RepoFile | 'new') => {
    setEditing(f);
    reset(f === 'new' ? { path: '', url: '', matched: '' } : { path: f.path, url: f.url ?? '', matched: f.matched ?? '' });
  };
  const onOk = () =>
    submit(
      async (v) => {
        const body: RepoFileInput = { path: v.path.trim(), url: v.url?.trim() || null, matched: v.matched?.trim() || null };
        if (editing === 'new') await add.mutateAsync(body);
        else if (editing) await edit.mutateAsync({ fileId: editing.id, body });
        setEditing(null);
      },
      ['path', 'url', 'matched'],
    );

  const items = files.data ?? [];
  return (
    <Card
      title={`Файлы${items.length ? ` (${items.length})` : ''}`}
      size="small"
      data-testid="repo-files"
      extra={
        canWrite && (
          <Button size="small" icon={<PlusOutlined />} onClick={() => open('new')}>
            Добавить файл
          </Button>
        )
      }
    >
      {files.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Файлов нет" style={{ margin: 0 }} />
      ) : (
        <Table<RepoFile>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={items}
          columns={[
            {
              key: 'path',
              title: 'Путь',
              render: (_v, f) =>
                f.url && safeHref(f.url) ? (
                  <SafeLink href={f.url}>{f.path}</SafeLink>
                ) : (
                  <Typography.Text code>{f.path}</Typography.Text>
                ),
            },
            {
              key: 'matched',
              title: 'Совпадение',
              render: (_v, f) =>
                f.matched ? (
                  <Typography.Text
                    ellipsis={{ tooltip: f.matched }}
                    style={{ maxWidth: 260, fontFamily: 'monospace', fontSize: 12 }}
                  >
                    {f.matched}
                  </Typography.Text>
                ) : (
                  EMPTY_VALUE
                ),
            },
            { key: 'created', title: 'Добавлен', width: 140, render: (_v, f) => formatDateTime(f.created_at) },
            ...(canWrite
              ? [
                  {
                    key: 'actions',
                    width: 80,
                    render: (_v: unknown, f: RepoFile) => (
                      <Flex gap={0}>
                        <Button
                          type="text"
                          size="small"
                          icon={<EditOutlined />}
                          onClick={() => open(f)}
                          aria-label="Изменить файл"
                        />
                        <Popconfirm
                          title="Удалить файл?"
                          okText="Удалить"
                          cancelText="Отмена"
                          okButtonProps={{ danger: true }}
                          onConfirm={() => remove.mutate(f.id)}
                        >
                          <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label="Удалить файл" />
                        </Popconfirm>
                      </Flex>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      <FormModal<FormValues>
        open={editing !== null}
        title={editing === 'new' ? 'Новый файл' : 'Файл'}
        isNew={editing === 'new'}
        okText="Сохранить"
        saving={add.isPending || edit.isPending}
        width={520}
        form={form}
        formError={formError}
        formProps={{ requiredMark: false }}
        onOk={() => void onOk()}
        onClose={() => setEditing(null)}
      >
        <Form.Item name="path" label="Путь в репозитории" rules={[{ required: true, whitespace: true, message: MSG.required }]}>
          <Input placeholder="config/application.yml" maxLength={1000} />
        </Form.Item>
        <Form.Item
          name="url"
          label="Ссылка"
          rules={[
            {
              validator: (_r, v?: string) =>
                !v?.trim() || urlSchema.safeParse(v.trim()).success ? Promise.resolve() : Promise.reject(new Error(MSG.url)),
            },
          ]}
        >
          <Input placeholder="https://github.com/…" />
        </Form.Item>
        <Form.Item name="matched" label="Совпадение">
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
        </Form.Item>
      </FormModal>
    </Card>
  );
}
