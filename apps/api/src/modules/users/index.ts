/* User administration: routes and service (the user rows themselves are in auth/users.repo.ts). */
export { usersRoutes } from './users.routes';
export { createUsersService } from './users.service';
