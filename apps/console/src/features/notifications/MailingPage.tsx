/*
 * /notifications/new and /notifications/{id}: a mailing's recipients, filters and schedule, with the
 * number of events the filters would have matched over the last 7 days, and the emails it sent.
 */
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Link } from '@tanstack/react-router';
import { PageHeading } from '../../components/page/PageHeading';
import { LoadingCard } from '../../components/page/QueryState';
import { useMailingFilterOptions, useMailingParamOptions, useMailingQuery } from './api/queries';
import { MailingEditor } from './editor/MailingEditor';

const backLink = (
  <Link to="/notifications" style={{ display: 'inline-block', marginBottom: 8 }}>
    <ArrowLeftOutlined /> К списку рассылок
  </Link>
);

export function MailingPage({ id }: { id: 'new' | number }) {
  const filters = useMailingFilterOptions();
  const params = useMailingParamOptions();
  const mailing = useMailingQuery(id === 'new' ? undefined : id);
  const title = id === 'new' ? 'Новая рассылка' : (mailing.data?.name ?? 'Рассылка уведомлений');
  if (!filters.data || !params.data || (id !== 'new' && !mailing.data)) {
    return (
      <>
        <PageHeading title={title} back={backLink} />
        {mailing.isError ? null : <LoadingCard rows={10} />}
      </>
    );
  }
  return (
    <MailingEditor
      key={id}
      mailing={id === 'new' ? undefined : mailing.data}
      filters={filters.data}
      params={params.data}
      back={backLink}
    />
  );
}
