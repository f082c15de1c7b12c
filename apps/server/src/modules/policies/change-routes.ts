// Routes of endorsements (批改) and cancellations (退保) of issued policies: the policyholder's requests (as
// applications: application:edit, the policy must be visible, else 404), the history on the policy, the
// underwriter's queue and decision (application:review), and paying an additional premium.
import {
  cancellationRequest,
  endorsementRequest,
  policyChangeDecision,
  policyChangeView,
} from '@piibs/shared/policy-change';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { customerViewerOf } from '../customers/access.ts';
import { businessContext } from '../payments/context.ts';
import {
  getPolicyChange,
  payPolicyChange,
  policyChangeQueue,
  policyChangesOf,
  resubmitPolicyChange,
  reviewPolicyChange,
  submitCancellation,
  submitEndorsement,
} from './changes.ts';

const policyParams = z.object({ id: z.coerce.number().int().positive().meta({ title: '保单ID' }) });
const changeParams = z.object({ id: z.coerce.number().int().positive().meta({ title: '申请ID' }) });

export const policyChangeRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx = businessContext(app);
  const db = () => app.deps.database.db;
  const canList = requirePermission(app, 'application:list');
  const canEdit = requirePermission(app, 'application:edit');
  const canReview = requirePermission(app, 'application:review');

  app.get(
    '/policies/:id/changes',
    {
      preHandler: canList,
      schema: {
        tags: ['policies'],
        summary: '保单的批改与退保记录（新在前；含批单号、保费增减、退费）',
        params: policyParams,
        response: { 200: z.array(policyChangeView), ...adminErrors },
      },
    },
    async (req) => policyChangesOf(db(), await customerViewerOf(db(), req.user), req.params.id),
  );

  app.post(
    '/policies/:id/endorsements',
    {
      preHandler: canEdit,
      schema: {
        tags: ['policies'],
        summary:
          '申请批改（参保人数、联系人、联系电话、地址；保费按日比例增减；同一幂等键答同一申请；每张保单同时只能有一个办理中的申请）',
        params: policyParams,
        body: endorsementRequest,
        response: { 200: policyChangeView, ...adminErrors },
      },
    },
    async (req) =>
      submitEndorsement(ctx, await customerViewerOf(db(), req.user), actorOf(req), req.params.id, req.body),
  );

  app.post(
    '/policies/:id/cancellations',
    {
      preHandler: canEdit,
      schema: {
        tags: ['policies'],
        summary:
          '申请退保（原因须为该险种接受的；安责险仅限企业关闭、破产、注销、停业，须附证明材料；退费按短期费率或按日比例）',
        params: policyParams,
        body: cancellationRequest,
        response: { 200: policyChangeView, ...adminErrors },
      },
    },
    async (req) =>
      submitCancellation(ctx, await customerViewerOf(db(), req.user), actorOf(req), req.params.id, req.body),
  );

  app.get(
    '/policy-changes/:id',
    {
      preHandler: canList,
      schema: {
        tags: ['policies'],
        summary: '批改/退保申请详情',
        params: changeParams,
        response: { 200: policyChangeView, ...adminErrors },
      },
    },
    async (req) => getPolicyChange(db(), await customerViewerOf(db(), req.user), req.params.id),
  );

  app.post(
    '/policy-changes/:id/pay',
    {
      preHandler: canEdit,
      schema: {
        tags: ['policies'],
        summary: '补缴批改保费：创建（或取回）支付渠道收银台链接',
        params: changeParams,
        response: { 200: z.object({ cashierUrl: z.string() }), ...adminErrors },
      },
    },
    async (req) => payPolicyChange(ctx, await customerViewerOf(db(), req.user), req.params.id),
  );

  app.post(
    '/policy-changes/:id/resubmit',
    {
      preHandler: canEdit,
      schema: {
        tags: ['policies'],
        summary: '重新提交已退回的批改/退保申请',
        params: changeParams,
        body: z.object({ version: z.number().int().min(0).meta({ title: '版本' }) }),
        response: { 200: policyChangeView, ...adminErrors },
      },
    },
    async (req) =>
      resubmitPolicyChange(
        ctx,
        await customerViewerOf(db(), req.user),
        actorOf(req),
        req.params.id,
        req.body.version,
      ),
  );

  app.get(
    '/policy-change-reviews',
    {
      preHandler: canReview,
      schema: {
        tags: ['policies'],
        summary: '待核保的批改/退保申请（先到先审；数据范围内的保单）',
        response: { 200: z.array(policyChangeView), ...adminErrors },
      },
    },
    async (req) => policyChangeQueue(db(), await customerViewerOf(db(), req.user)),
  );

  app.post(
    '/policy-changes/:id/review',
    {
      preHandler: canReview,
      schema: {
        tags: ['policies'],
        summary: '审核批改/退保申请：通过（退费经支付渠道退款接口，补缴则待支付）、退回、拒绝',
        params: changeParams,
        body: policyChangeDecision,
        response: { 200: policyChangeView, ...adminErrors },
      },
    },
    async (req) =>
      reviewPolicyChange(
        ctx,
        await customerViewerOf(db(), req.user),
        actorOf(req),
        req.params.id,
        req.body.decision,
        req.body.opinion,
        req.body.version,
      ),
  );
};
