import { createFileRoute } from '@tanstack/react-router';
import { NotFoundPage } from '../../../features/errors/NotFoundPage';

/** Any other path of a signed-in user: 404 inside the default layout. */
export const Route = createFileRoute('/_auth/_app/$')({
  component: NotFoundPage,
});
