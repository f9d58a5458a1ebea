import { DeleteOutlined } from '@ant-design/icons';
import type { Mailing, MailingFilterOptions, MailingParamOptions } from '@forpost/contract/mailings';
import { MSG } from '@forpost/contract/messages';
import { Button, Col, Form, Row } from 'antd';
import type { ReactNode } from 'react';
import { SubmitButtons } from '../../../components/form/SubmitButtons';
import { PageHeading } from '../../../components/page/PageHeading';
import { feedback } from '../../../lib/feedback';
import { DeliveriesCard } from '../components/DeliveriesCard';
import { MailingStatusTag } from '../components/labels';
import { EventFiltersCard } from './EventFiltersCard';
import { MailingCard } from './MailingCard';
import { MailingSide } from './MailingSide';
import { ScheduleCard } from './ScheduleCard';
import { useMailingEditor } from './useMailingEditor';
import type { MailingFormValues } from './values';

/**
 * Create (no mailing) or edit a mailing: its recipients, event filters and schedule, with the preview
 * of matching events beside it and, once saved, its deliveries. State and actions: useMailingEditor.
 */
export function MailingEditor({
  mailing,
  filters,
  params,
  back,
}: {
  mailing?: Mailing;
  filters: MailingFilterOptions;
  params: MailingParamOptions;
  back: ReactNode;
}) {
  const { message } = feedback;
  const e = useMailingEditor(mailing, filters);
  const frequency = Form.useWatch('frequency', e.form) ?? e.initial.frequency;
  const quiet = Form.useWatch('quiet', e.form) ?? e.initial.quiet;

  return (
    <>
      <PageHeading
        title={mailing ? mailing.name : 'Новая рассылка'}
        subtitle={mailing ? <MailingStatusTag m={mailing} /> : 'Письма о новых событиях, подходящих под фильтры'}
        back={back}
        extra={
          mailing && e.canManage ? (
            <Button danger icon={<DeleteOutlined />} onClick={() => e.onDelete(mailing)}>
              Удалить
            </Button>
          ) : null
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Form<MailingFormValues>
            form={e.form}
            layout="vertical"
            initialValues={e.initial}
            onFinish={e.submit}
            disabled={!e.canManage}
            data-testid="mailing-form"
            onFinishFailed={() => message.error(MSG.fillRequired)}
          >
            <MailingCard filters={filters} />
            <EventFiltersCard filters={filters} />
            <ScheduleCard params={params} frequency={frequency} quiet={quiet} />
            {e.canManage && (
              <SubmitButtons
                text={mailing ? 'Сохранить' : 'Создать рассылку'}
                saving={e.saving}
                cancelTo="/notifications"
                testId="mailing-save"
              />
            )}
          </Form>
        </Col>
        <Col xs={24} xl={8}>
          <MailingSide mailing={mailing} previewBody={e.previewBody} />
        </Col>
        {mailing && (
          <Col span={24}>
            <DeliveriesCard mailingId={mailing.id} />
          </Col>
        )}
      </Row>
    </>
  );
}
