// First: zod's settings before any schema parses (lib/zod-config.ts).
import './lib/zod-config';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { removeLoginShell } from './features/auth/removeLoginShell';
import { Providers } from './Providers';
import { router } from './router';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing in index.html');

// The sign-in page's HTML picture (features/auth/loginShell.ts) goes once the first page is drawn: the
// sign-in page takes it away itself as it draws (it renders behind it in a transition, after the router
// reports it rendered); any other page (a signed-in user is sent from /login to /) or an error here.
const stopShell = router.subscribe('onRendered', ({ toLocation }) => {
  stopShell();
  if (toLocation.pathname !== '/login' || router.state.matches.some((m) => m.status === 'error')) removeLoginShell();
});

const root = createRoot(container);
startTransition(() => {
  root.render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
});
