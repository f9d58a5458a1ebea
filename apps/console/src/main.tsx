// First: zod's settings before any schema parses (lib/zod-config.ts).
import './lib/zod-config';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from './Providers';
import { router } from './router';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing in index.html');

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
