import { createFileRoute } from '@tanstack/react-router';
import { SectionPending } from '../../../features/shell/SectionPending';

export const Route = createFileRoute('/_auth/_app/')({
  component: () => <SectionPending title="Главная" />,
});
