import { ArrowLeftOutlined } from '@ant-design/icons';
import { Link } from '@tanstack/react-router';
import { PageHeading } from '../../components/page/PageHeading';
import { LoadingCard } from '../../components/page/QueryState';
import { useUserQuery } from './api/queries';
import { UserForm } from './form/UserForm';

const backLink = (
  <Link to="/users" style={{ display: 'inline-block', marginBottom: 8 }}>
    <ArrowLeftOutlined /> К списку пользователей
  </Link>
);

/** /users/{id?}/edit: create (no id) or edit a user. */
export function UserEditPage({ id }: { id?: number }) {
  const user = useUserQuery(id);
  if (id !== undefined && !user.data) {
    return (
      <>
        <PageHeading title="Пользователь" back={backLink} />
        {user.isError ? null : <LoadingCard />}
      </>
    );
  }
  return <UserForm key={user.data?.id ?? 'new'} user={user.data} back={backLink} />;
}
