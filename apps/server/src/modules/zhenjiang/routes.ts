import { applicantInitBody, applicantInitResult } from '@piibs/shared/zhenjiang';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminErrors } from '../../lib/schemas.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { customerViewerOf } from '../customers/access.ts';
import { applicantInit } from './service.ts';

/** The ZhenJiang city channel (path exact, spec §7). */
export const zhenjiangRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.post(
    '/inputPlaInsurance/ZhenJiang/applicantInit',
    {
      preHandler: requirePermission(app, 'customer:list'),
      schema: {
        tags: ['zhenjiang'],
        summary:
          '镇江渠道：按已审核通过的投保人预填新投保单（地区默认 321100 镇江市，默认该地区的安责险险种；不保存）。无权查看答 404，未审核通过答 400',
        body: applicantInitBody,
        response: { 200: applicantInitResult, ...adminErrors },
      },
    },
    async (req) => applicantInit(db(), await customerViewerOf(db(), req.user), req.body),
  );
};
