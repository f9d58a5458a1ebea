/* The «?» sheet: the shortcuts of the page the user is on. */
import { Modal, Table, Typography } from 'antd';
import { COMMON_KEYS, type KeyHelp } from './keys';

export function KeysHelp({ open, onClose, keys, title }: { open: boolean; onClose: () => void; keys: KeyHelp[]; title: string }) {
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={`Горячие клавиши: ${title}`} width={520} destroyOnHidden>
      <Table<KeyHelp>
        data-testid="keys-help"
        size="small"
        pagination={false}
        rowKey={(r) => r.keys.join('+')}
        dataSource={[...keys, ...COMMON_KEYS]}
        columns={[
          {
            key: 'keys',
            title: 'Клавиши',
            width: 140,
            render: (_, r) =>
              r.keys.map((k, i) => (
                <span key={k}>
                  {i > 0 && ' или '}
                  <Typography.Text keyboard>{k}</Typography.Text>
                </span>
              )),
          },
          { key: 'what', title: 'Действие', dataIndex: 'what' },
        ]}
      />
    </Modal>
  );
}
