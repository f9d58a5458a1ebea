import type { MailingFilterOptions, MailingFilters } from '@forpost/contract/mailings';
import { MSG } from '@forpost/contract/messages';
import type { ModuleCode } from '@forpost/contract/modules';
import { Card, Col, Form, Input, Row, Select, type SelectProps } from 'antd';
import { AssigneeFilter } from '../../events/assign/AssigneeFilter';
import { ALL, assigneeFromSelect, assigneeToSelect, type MailingFormValues } from './values';

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

const MAILING_ASSIGNEE_CHOICES = [{ value: 'none', label: 'Не назначен' }];

/**
 * The events' assignee, with the events feature's picker: «Любой исполнитель» (empty), «Не назначен» or a
 * user who may be assigned the mailing's events — of its company, in its first module (any module the
 * caller reaches when none is chosen).
 */
function AssigneeField({
  id,
  value,
  onChange,
  filters,
}: {
  id?: string;
  value?: MailingFilters['assignee'];
  onChange?: (v: MailingFilters['assignee']) => void;
  filters: MailingFilterOptions;
}) {
  const form = Form.useFormInstance<MailingFormValues>();
  const modules = Form.useWatch('modules', form) ?? [];
  const company = Form.useWatch('company_id', form);
  const code = (modules[0] ?? filters.modules[0]?.value ?? 'domains') as ModuleCode;
  return (
    <AssigneeFilter
      code={code}
      companyId={company === ALL || company === undefined ? null : company}
      value={assigneeToSelect(value)}
      onChange={(v) => onChange?.(assigneeFromSelect(v))}
      choices={MAILING_ASSIGNEE_CHOICES}
      placeholder="Любой исполнитель"
      testId="filter-assignee"
      id={id}
    />
  );
}

/** «Какие события»: modules, priorities, statuses, sources, tags, assignee, text and the watch transitions. */
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
          <Form.Item name="assignee" label="Исполнитель">
            <AssigneeField filters={filters} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="text" label="Текст" rules={[{ max: 200, message: MSG.tooLong(200) }]}>
            <Input placeholder="Слова в событии (как поиск в списках)" allowClear />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item
            name="transitions"
            label="Переходы наблюдения"
            extra="Пусто — рассылка о новых событиях. Если выбраны переходы, письмо придёт, когда наблюдение зафиксирует такой переход у домена, подходящего под фильтры выше."
          >
            <Select
              mode="multiple"
              allowClear
              placeholder="Нет — о новых событиях"
              options={filters.transitions}
              optionFilterProp="label"
              data-testid="filter-transitions"
            />
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}
