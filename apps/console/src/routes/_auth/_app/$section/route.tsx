import { createFileRoute, notFound, Outlet } from '@tanstack/react-router';
import { NotFoundPage } from '../../../../features/errors/NotFoundPage';
import { findEventSection } from '../../../../features/shell/sections';

/**
 * The 16 event sections (/domains, /brands, …) share one route: the segment is checked against the
 * section list; anything else is a 404 ('Page Not Found: {path}') inside the default layout.
 */
export const Route = createFileRoute('/_auth/_app/$section')({
  beforeLoad: ({ params }) => {
    const section = findEventSection(params.section);
    if (!section) throw notFound();
    return { section };
  },
  component: Outlet,
  notFoundComponent: NotFoundPage,
});
