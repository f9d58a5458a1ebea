import { useNavigate, useRouterState } from '@tanstack/react-router';
import { Select } from 'antd';
import { useEffect, useMemo } from 'react';
import { useMe } from '../auth/useMe';
import { ALL_COMPANIES, ALL_COMPANIES_LABEL, setCompanyId, useCompanyId } from './useCompanyId';

/**
 * Header company selector: «Все компании» (id −1) first, then the user's companies from /me.
 * `?companyId=<id>` in the URL selects a company (links from mails, reports).
 */
export function CompanySelector() {
  const me = useMe();
  const [companyId] = useCompanyId();
  const navigate = useNavigate();
  const queryCompanyId = useRouterState({
    select: (s) => (s.location.search as Record<string, unknown>).companyId as string | number | undefined,
  });

  const options = useMemo(
    () => [
      { value: ALL_COMPANIES, label: ALL_COMPANIES_LABEL },
      ...[...me.companies].sort((a, b) => a.name.localeCompare(b.name, 'ru')).map((c) => ({ value: c.id, label: c.name })),
    ],
    [me.companies],
  );

  // ?companyId= from the URL wins once per value.
  useEffect(() => {
    if (queryCompanyId === undefined || queryCompanyId === null || queryCompanyId === '') return;
    const id = Number(queryCompanyId);
    if (Number.isInteger(id)) setCompanyId(id);
  }, [queryCompanyId]);

  // A remembered company the user no longer belongs to falls back to «Все компании».
  const known = companyId === ALL_COMPANIES || me.companies.some((c) => c.id === companyId);
  useEffect(() => {
    if (!known) setCompanyId(ALL_COMPANIES);
  }, [known]);

  const onChange = (id: number) => {
    setCompanyId(id);
    // Drop a stale ?companyId= so a reload keeps the user's own choice.
    if (queryCompanyId !== undefined) {
      void navigate({
        to: '.',
        search: (prev: Record<string, unknown>) => {
          const { companyId: _drop, ...rest } = prev;
          return rest;
        },
        replace: true,
      } as never);
    }
  };

  return (
    <Select<number>
      aria-label="Компания"
      data-testid="company-selector"
      value={known ? companyId : ALL_COMPANIES}
      options={options}
      onChange={onChange}
      showSearch={{ optionFilterProp: 'label' }}
      style={{ width: 280 }}
      popupMatchSelectWidth={false}
    />
  );
}
