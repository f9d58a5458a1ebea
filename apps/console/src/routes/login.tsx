import { createFileRoute, redirect } from '@tanstack/react-router';
import { meQuery } from '../features/auth/api/queries';
import { LoginPage } from '../features/auth/LoginPage';
import { parseLoginSearch } from '../features/auth/loginSearch';

export const Route = createFileRoute('/login')({
  validateSearch: parseLoginSearch,
  beforeLoad: async ({ context }) => {
    // A signed-in user does not need the login page.
    const me = await context.queryClient.fetchQuery(meQuery).catch(() => null);
    if (me) throw redirect({ to: '/' });
  },
  component: LoginRoute,
});

function LoginRoute() {
  const search = Route.useSearch();
  return <LoginPage search={search} />;
}
