/* Companies: routes, service and the repository every company-scoped area reads (`createCompaniesRepo`). */
export { type CompaniesRepo, createCompaniesRepo } from './companies.repo';
export { companiesRoutes } from './companies.routes';
export { createCompaniesService } from './companies.service';
