import type { MailingFilterOptions } from '@forpost/contract/mailings';
import { MSG } from '@forpost/contract/messages';
import { Card, Col, Form, Input, Row, Select, type SelectProps } from 'antd';

/** The multi-select filters, in their order on the card; an empty one matches every event. */
const multiFilters = (filters: MailingFilterOptions): { name: string; label: string; select: SelectProps; testId?: string }[] => [
  {
    name: 'modules',
    label: 'Модули',
    select: {
      placeholder: 'Все модули',
      options: filters.modules,
      optionFilterProp: 'label',
      maxTagCount: 'responsive',
    },
    testId: 'filter-modules',
  },
  {
    name: 'priorities',
    label: 'Приоритеты',
    select: { placeholder: 'Любой приоритет', options: filters.priorities },
    testId: 'filter-priorities',
  },
  { name: 'statuses', label: 'Статусы', select: { placeholder: 'Любой статус', options: filters.statuses } },
  { name: 'sources', label: 'Источники', select: { placeholder: 'Любой источник', options: filters.sources } },
  {
    name: 'tags',
    label: 'Теги',
    select: {
      placeholder: 'Любые теги',
      options: filters.tags.map((t) => ({ value: t.id, label: t.name })),
      optionFilterProp: 'label',
      notFoundContent: 'Тегов нет',
    },
  },
];

/** «Какие события»: modules, priorities, statuses, sources, tags and text. */
export function EventFiltersCard({ filters }: { filters: MailingFilterOptions }) {
  return (
    <Card title="Какие события" style={{ marginBottom: 16 }}>
      <Row gutter={16}>
        {multiFilters(filters).map((f) => (
          <Col xs={24} md={12} key={f.name}>
            <Form.Item name={f.name} label={f.label}>
              <Select mode="multiple" allowClear {...f.select} data-testid={f.testId} />
            </Form.Item>
          </Col>
        ))}
        <Col xs={24} md={12}>
          <Form.Item name="text" label="Текст" rules={[{ max: 200, message: MSG.tooLong(200) }]}>
            <Input placeholder="Слова в событии (как поиск в списках)" allowClear />
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}
