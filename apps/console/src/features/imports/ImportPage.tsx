/*
 * /{section}/import and /settings/leaks/import: upload a CSV/XLSX file, check the mapping and the
 * first rows, start the background import, watch it (polled every second), see the history.
 * The import being worked on is in the URL (?id=…), so a reload or a link comes back to it.
 */
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { ImportItem, ImportPreview } from '@forpost/contract/imports';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Button, Flex, Skeleton } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { PageHeading } from '../../components/page/PageHeading';
import { LoadError } from '../../components/page/QueryState';
import { useCan } from '../auth/useMe';
import { useCompanyOptions } from '../companies/api/queries';
import { ALL_COMPANIES, useCompanyId } from '../company/useCompanyId';
import { useDeleteImport, usePreviewImport } from './api/mutations';
import { type ImportTarget, importKeys, importsBase, isActive, useImportQuery } from './api/queries';
import { ImportHistory } from './components/ImportHistory';
import { MappingStep } from './components/MappingStep';
import { ProgressCard } from './components/ProgressCard';
import { UploadStep } from './components/UploadStep';

export interface ImportPageProps {
  target: ImportTarget;
  title: string;
  subtitle: string;
  back: { to: string; params?: Record<string, string>; label: string };
  /** Section of the event list (for «Созданные события»). */
  section?: string;
  currentId?: number;
  onCurrent: (id: number | undefined) => void;
}

export function ImportPage({ target, title, subtitle, back, section, currentId, onCurrent }: ImportPageProps) {
  const [headerCompany] = useCompanyId();
  const companyOptions = useCompanyOptions();
  const canImport = useCan('events.import');
  const companies = useMemo(() => {
    if (target.kind !== 'module') return undefined;
    return companyOptions.options;
  }, [target.kind, companyOptions.options]);
  const [companyId, setCompanyId] = useState<number | undefined>(headerCompany === ALL_COMPANIES ? undefined : headerCompany);
  // A user of a single company imports into it.
  useEffect(() => {
    if (companyId === undefined && companies?.length === 1) setCompanyId(companies[0]?.value);
  }, [companies, companyId]);

  const current = useImportQuery(target, currentId);
  const [previews, setPreviews] = useState<Record<number, ImportPreview>>({});
  const previewer = usePreviewImport(target);
  const remove = useDeleteImport(target);
  const item: ImportItem | undefined = current.data;

  // An upload opened from the history (or after a reload) gets its preview again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: fetch once per uploaded import
  useEffect(() => {
    if (item?.status === 'uploaded' && !previews[item.id] && !previewer.isPending) {
      previewer.mutate(
        { id: item.id, mapping: item.mapping },
        { onSuccess: (p) => setPreviews((s) => ({ ...s, [item.id]: p })) },
      );
    }
  }, [item?.id, item?.status]);

  // When the job finishes, the history shows it at once (it polls slower).
  const qc = useQueryClient();
  const finished = item !== undefined && !isActive(item);
  const base = importsBase(target);
  useEffect(() => {
    if (finished) void qc.invalidateQueries({ queryKey: importKeys.lists(base) });
  }, [finished, qc, base]);

  // An import opened from the history keeps the company it was uploaded with.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when another import is opened
  useEffect(() => {
    if (item?.company_id) setCompanyId(item.company_id);
  }, [item?.id]);

  const startOver = () => {
    if (item?.status === 'uploaded') remove.mutate(item.id);
    onCurrent(undefined);
  };

  let body: React.ReactNode;
  if (currentId === undefined) {
    body = (
      <UploadStep
        target={target}
        companies={companies}
        companyId={companyId}
        onCompany={setCompanyId}
        onUploaded={(r) => {
          const { preview, ...rest } = r;
          setPreviews((s) => ({ ...s, [r.id]: preview }));
          onCurrent(rest.id);
        }}
      />
    );
  } else if (current.isError && !item) {
    body = <LoadError error={current.error} onRetry={() => void current.refetch()} />;
  } else if (!item) {
    body = <Skeleton active paragraph={{ rows: 6 }} />;
  } else if (item.status === 'uploaded') {
    const preview = previews[item.id];
    body = preview ? (
      <MappingStep
        key={item.id}
        target={target}
        item={item}
        preview={preview}
        companies={companies}
        companyId={companyId}
        onCompany={setCompanyId}
        onStarted={() => void current.refetch()}
        onCancel={startOver}
      />
    ) : (
      <Skeleton active paragraph={{ rows: 6 }} />
    );
  } else {
    body = (
      <ProgressCard
        target={target}
        item={item}
        eventsLink={section ? { section } : undefined}
        onNew={() => onCurrent(undefined)}
      />
    );
  }

  return (
    <Flex vertical gap={16}>
      <PageHeading
        title={title}
        subtitle={subtitle}
        back={
          <Link to={back.to} params={back.params} style={{ display: 'inline-block', marginBottom: 8 }}>
            <Button type="link" icon={<ArrowLeftOutlined />} style={{ paddingInline: 0 }}>
              {back.label}
            </Button>
          </Link>
        }
      />
      {body}
      {canImport || target.kind === 'catalogue' ? (
        <ImportHistory
          target={target}
          companyId={headerCompany === ALL_COMPANIES ? undefined : headerCompany}
          currentId={currentId}
          onOpen={onCurrent}
          onDeleted={(id) => id === currentId && onCurrent(undefined)}
        />
      ) : null}
    </Flex>
  );
}
