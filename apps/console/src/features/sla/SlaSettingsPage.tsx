/* /settings/sla: the installation's default SLA deadlines per priority (companies may override them). */
import { Card } from 'antd';
import { PageHeading } from '../../components/page/PageHeading';
import { useCan } from '../auth/useMe';
import { SlaPolicyEditor } from './SlaPolicyEditor';

export function SlaSettingsPage() {
  const canEdit = useCan('settings.manage');
  return (
    <>
      <PageHeading
        title="Сроки SLA"
        subtitle="Сроки по умолчанию: сколько событие может ждать первого разбора и решения. Свои сроки компании задаются на её странице."
      />
      <Card>
        <SlaPolicyEditor scope={null} canEdit={canEdit} />
      </Card>
    </>
  );
}
