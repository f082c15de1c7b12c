// Service organisations (风控服务机构) and their persons / experts: list, read, create, update, delete, the
// accounts acting for an organisation, and unmasking phones. Permission codes service_org:list|add|edit|del,
// service_person:list|add|edit|del; an organisation's own accounts see only their own records (access.ts).

import { blurryParam, boolParam, idsBody, pageOf } from '@piibs/shared/admin';
import {
  orgMemberRow,
  orgMembersForm,
  orgUnmaskResult,
  personUnmaskResult,
  SERVICE_ORG_SORT_FIELDS,
  SERVICE_PERSON_SORT_FIELDS,
  serviceOrgCreateForm,
  serviceOrgRow,
  serviceOrgUpdateForm,
  servicePersonCreateForm,
  servicePersonRow,
  servicePersonUpdateForm,
} from '@piibs/shared/risk-control';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageQuery, paginate } from '../../lib/paging.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { preventionViewerOf } from './access.ts';
import { MEMBER_CANDIDATE_LIMIT, orgMemberCandidates, orgMembers, setOrgMembers } from './org-members.ts';
import { createOrg, deleteOrgs, getOrg, orgListSpec, unmaskOrg, updateOrg } from './orgs.ts';
import {
  createPerson,
  deletePersons,
  getPerson,
  personListSpec,
  unmaskPerson,
  updatePerson,
} from './persons.ts';
import { idParams, positiveId, tags } from './route-params.ts';

const orgListQuery = pageQuery(SERVICE_ORG_SORT_FIELDS).extend({
  blurry: blurryParam.meta({ title: '关键词', description: '机构名称或统一社会信用代码包含' }),
  enabled: boolParam('启用').optional(),
  region: z.string().trim().max(6).optional().meta({ title: '服务地区' }),
  industry: z.string().trim().max(1).optional().meta({ title: '服务行业' }),
});
const personListQuery = pageQuery(SERVICE_PERSON_SORT_FIELDS).extend({
  orgId: positiveId('服务机构').optional(),
  blurry: blurryParam.meta({ title: '关键词', description: '姓名、专业领域或证书编号包含' }),
  expert: boolParam('专家').optional(),
  enabled: boolParam('启用').optional(),
});

export const serviceOrgRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  const viewer = (req: FastifyRequest) => preventionViewerOf(db(), req);
  const can = (code: string) => requirePermission(app, code);

  // ---- service organisations ----

  app.get(
    '/service-orgs',
    {
      preHandler: can('service_org:list'),
      schema: {
        tags: tags.orgs,
        summary: '服务机构列表（保险公司人员全部；服务机构账号仅本机构；联系电话脱敏）',
        querystring: orgListQuery,
        response: { 200: pageOf(serviceOrgRow), ...adminErrors },
      },
    },
    async (req) => paginate(req.query, orgListSpec(db(), await viewer(req), req.query)),
  );

  app.get(
    '/service-orgs/:id',
    {
      preHandler: can('service_org:list'),
      schema: {
        tags: tags.orgs,
        summary: '服务机构详情',
        params: idParams('服务机构ID'),
        response: { 200: serviceOrgRow, ...adminErrors },
      },
    },
    async (req) => getOrg(db(), await viewer(req), req.params.id),
  );

  app.post(
    '/service-orgs',
    {
      preHandler: can('service_org:add'),
      schema: {
        tags: tags.orgs,
        summary: '新增服务机构（保险公司人员；统一社会信用代码按 GB 32100 校验，重复答 409）',
        body: serviceOrgCreateForm,
        response: { 200: serviceOrgRow, ...adminErrors },
      },
    },
    async (req) => createOrg(db(), await viewer(req), req.body),
  );

  app.post(
    '/service-orgs/update',
    {
      preHandler: can('service_org:edit'),
      schema: {
        tags: tags.orgs,
        summary: '修改服务机构（本机构账号不能改代码与启用状态；脱敏电话保留原号码；version 过期答 409）',
        body: serviceOrgUpdateForm,
        response: { 200: serviceOrgRow, ...adminErrors },
      },
    },
    async (req) => updateOrg(db(), await viewer(req), req.body),
  );

  app.post(
    '/service-orgs/delete',
    {
      preHandler: can('service_org:del'),
      schema: {
        tags: tags.orgs,
        summary: '删除服务机构（已有服务计划或服务单的只能停用，答 409）',
        body: idsBody('服务机构ID'),
        response: { 200: z.object({ deleted: z.number() }), ...adminErrors },
      },
    },
    async (req) => deleteOrgs(db(), await viewer(req), req.body),
  );

  app.post(
    '/service-orgs/:id/unmask',
    {
      preHandler: can('service_org:edit'),
      schema: {
        tags: tags.orgs,
        summary: '查看联系人完整电话（记入审计日志）',
        params: idParams('服务机构ID'),
        response: { 200: orgUnmaskResult, ...adminErrors },
      },
    },
    async (req) => unmaskOrg(db(), await viewer(req), req.params.id),
  );

  app.get(
    '/service-orgs/:id/members',
    {
      preHandler: can('service_org:list'),
      schema: {
        tags: tags.orgs,
        summary: '服务机构的登录账号',
        params: idParams('服务机构ID'),
        response: { 200: z.array(orgMemberRow), ...adminErrors },
      },
    },
    async (req) => orgMembers(db(), await viewer(req), req.params.id),
  );

  app.get(
    '/service-orgs/:id/member-candidates',
    {
      preHandler: can('service_org:edit'),
      schema: {
        tags: tags.orgs,
        summary: `可设为机构账号的账号（保险公司人员；风控服务机构角色、未属于其他机构；用户名或昵称包含关键词，最多 ${MEMBER_CANDIDATE_LIMIT} 个）`,
        params: idParams('服务机构ID'),
        querystring: z.object({
          keyword: blurryParam.meta({ title: '关键词', description: '用户名或昵称包含' }),
        }),
        response: { 200: z.array(orgMemberRow), ...adminErrors },
      },
    },
    async (req) => orgMemberCandidates(db(), await viewer(req), req.params.id, req.query.keyword),
  );

  app.post(
    '/service-orgs/:id/members',
    {
      preHandler: can('service_org:edit'),
      schema: {
        tags: tags.orgs,
        summary: '设置服务机构的登录账号（保险公司人员；须为风控服务机构角色，一个账号只属于一个机构）',
        params: idParams('服务机构ID'),
        body: orgMembersForm,
        response: { 200: z.array(orgMemberRow), ...adminErrors },
      },
    },
    async (req) => setOrgMembers(db(), await viewer(req), req.params.id, req.body.userIds),
  );

  // ---- service persons / experts ----

  app.get(
    '/service-persons',
    {
      preHandler: can('service_person:list'),
      schema: {
        tags: tags.orgs,
        summary: '服务人员/专家列表（手机号脱敏）',
        querystring: personListQuery,
        response: { 200: pageOf(servicePersonRow), ...adminErrors },
      },
    },
    async (req) => paginate(req.query, personListSpec(db(), await viewer(req), req.query)),
  );

  app.get(
    '/service-persons/:id',
    {
      preHandler: can('service_person:list'),
      schema: {
        tags: tags.orgs,
        summary: '服务人员详情（手机号脱敏）',
        params: idParams('服务人员ID'),
        response: { 200: servicePersonRow, ...adminErrors },
      },
    },
    async (req) => getPerson(db(), await viewer(req), req.params.id),
  );

  app.post(
    '/service-persons',
    {
      preHandler: can('service_person:add'),
      schema: {
        tags: tags.orgs,
        summary: '新增服务人员/专家（保险公司人员任一机构；服务机构账号本机构）',
        body: servicePersonCreateForm,
        response: { 200: servicePersonRow, ...adminErrors },
      },
    },
    async (req) => createPerson(db(), await viewer(req), req.body),
  );

  app.post(
    '/service-persons/update',
    {
      preHandler: can('service_person:edit'),
      schema: {
        tags: tags.orgs,
        summary: '修改服务人员（脱敏手机号保留原号码；version 过期答 409）',
        body: servicePersonUpdateForm,
        response: { 200: servicePersonRow, ...adminErrors },
      },
    },
    async (req) => updatePerson(db(), await viewer(req), req.body),
  );

  app.post(
    '/service-persons/delete',
    {
      preHandler: can('service_person:del'),
      schema: {
        tags: tags.orgs,
        summary: '删除服务人员（已参与服务的只能停用，答 409）',
        body: idsBody('服务人员ID'),
        response: { 200: z.object({ deleted: z.number() }), ...adminErrors },
      },
    },
    async (req) => deletePersons(db(), await viewer(req), req.body),
  );

  app.post(
    '/service-persons/:id/unmask',
    {
      preHandler: can('service_person:edit'),
      schema: {
        tags: tags.orgs,
        summary: '查看完整手机号（记入审计日志）',
        params: idParams('服务人员ID'),
        response: { 200: personUnmaskResult, ...adminErrors },
      },
    },
    async (req) => unmaskPerson(db(), await viewer(req), req.params.id),
  );
};
