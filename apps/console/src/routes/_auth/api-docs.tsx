import { createFileRoute } from '@tanstack/react-router';
import { BlankLayout } from '../../features/shell/BlankLayout';
import { SectionPending } from '../../features/shell/SectionPending';

export const Route = createFileRoute('/_auth/api-docs')({
  component: () => (
    <BlankLayout>
      <SectionPending title="Документация API" backHome />
    </BlankLayout>
  ),
});
