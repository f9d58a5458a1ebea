import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { meQuery, preloadMeSchema } from '../features/auth/api/queries';

const ACTIVATION_PATH = '/product-keys-activation';

/** Everything except /login needs a session: /me is loaded once here before any such route. */
export const Route = createFileRoute('/_auth')({
  beforeLoad: async ({ context, location }) => {
    void preloadMeSchema(); // in parallel with GET /me, which needs it to check the profile
    const me = await context.queryClient.fetchQuery(meQuery);
    if (!me) throw redirect({ to: '/login', search: { redirect: location.href } });
    if (me.pending_activation && location.pathname !== ACTIVATION_PATH) throw redirect({ to: ACTIVATION_PATH });
    return { me };
  },
  component: Outlet,
});
