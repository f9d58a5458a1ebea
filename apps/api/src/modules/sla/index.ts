/* SLA: policies, the due times' view, the breach job (docs/decisions.md «SLA»). */
export { createSlaJobs } from './sla.jobs';
export { slaRoutes } from './sla.routes';
export { createSlaService, type NotifyBreaches, type SlaService } from './sla.service';
export { slaView } from './sla.view';
