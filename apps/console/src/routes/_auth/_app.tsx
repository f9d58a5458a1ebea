import { createFileRoute } from '@tanstack/react-router';
import { DefaultLayout } from '../../features/shell/DefaultLayout';

/** The default layout (side menu + header) for every signed-in page except the blank ones. */
export const Route = createFileRoute('/_auth/_app')({
  component: DefaultLayout,
});
