import { createFileRoute, redirect } from '@tanstack/react-router';

/** Links from password-reset mails: /newpassword?token=X → /login?type=new-password&token=X. */
export const Route = createFileRoute('/newpassword')({
  beforeLoad: ({ search }) => {
    const token = (search as Record<string, unknown>).token;
    throw redirect({
      to: '/login',
      search: { type: 'new-password', token: token === undefined || token === null ? undefined : String(token) },
      replace: true,
    });
  },
});
