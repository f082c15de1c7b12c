// Risk control (风险管控): service organisations and persons, prevention records (fund, plan, ledger), service
// orders, and the service archive export (xlsx, and a PDF summary: archive-pdf.ts). Permission codes (granted
// by the menu seed):
//   service_org:list|add|edit|del, service_person:list|add|edit|del,
//   prevention:list (read), prevention:plan (staff: plan, dispatch, cancel), prevention:serve (organisation:
//   accept, reject, start, record, submit, rectify, reply), prevention:confirm (enterprise: confirm, return,
//   rate, complain), prevention:export (the archive).
// On top of the codes, each record decides who sees it (404 otherwise) and which side may act (403) — see
// access.ts; states and stale versions answer 409.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceOrgRoutes } from './org-routes.ts';
import { preventionRoutes } from './prevention-routes.ts';

export const riskControlRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(serviceOrgRoutes);
  await app.register(preventionRoutes);
};
