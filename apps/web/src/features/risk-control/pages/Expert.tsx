// 服务机构 (riskControl/Expert, route prevention/expert): the service organisations (insurer staff all, an
// organisation's account its own) with qualifications, regions, industries and masked contacts, and below them
// their service persons / experts with masked phones; an organisation without a linked account is marked
// 未关联 (its staff would see nothing). 新增 / 修改 / 查看 open serviceOrg/newUpdate/:id/:detail
// and servicePerson/newUpdate/:id/:detail; 人员 filters the persons by the organisation. Both lists keep their
// state in the URL (the persons' under `person.`).
import { PlusOutlined } from '@ant-design/icons';
import type { ServiceOrgRow, ServicePersonRow } from '@piibs/shared/risk-control';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Space, Tag, Tooltip, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useDeleteRows } from '@/components/crud/actions.tsx';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { RowAction } from '@/components/crud/RowAction.tsx';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { Can } from '@/lib/permission.tsx';
import { orgEditPath, orgOptionsQuery, orgsResource, personEditPath, personsResource } from '../api.ts';
import { MEMBER_TEXTS as M } from '../components/OrgMembersCard.tsx';
import { RISK_TEXTS as T } from '../texts.ts';

const ENABLED_OPTIONS = [
  { value: 'true', label: T.enabled },
  { value: 'false', label: T.disabled },
];
const ORG_SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: T.keyword, placeholder: '机构名称或统一社会信用代码', width: 240 },
  { kind: 'select', name: 'enabled', label: T.status, options: ENABLED_OPTIONS, width: 120 },
];
const ORG_KEYS = searchKeys(ORG_SEARCH);
const PERSON_KEYS = ['blurry', 'orgId', 'expert', 'enabled'];

const enabledTag = (enabled: boolean) => (
  <Tag color={enabled ? 'success' : 'default'}>{enabled ? T.enabled : T.disabled}</Tag>
);

function Orgs() {
  const list = useListState({ filterKeys: ORG_KEYS, defaultSort: 'id,desc' });
  const persons = useListState({ prefix: 'person', filterKeys: PERSON_KEYS });
  const navigate = useNavigate();
  const deleteRows = useDeleteRows(orgsResource, {
    warning: '已有服务计划或服务单的机构不能删除，只能停用。',
  });
  const columns: CrudColumn<ServiceOrgRow>[] = [
    {
      key: 'name',
      title: T.orgName,
      dataIndex: 'name',
      sortField: 'name',
      alwaysVisible: true,
      render: (_, o) => (
        <Typography.Link onClick={() => navigate(orgEditPath(o.id, true))}>{o.name}</Typography.Link>
      ),
    },
    { key: 'code', title: T.orgCode, dataIndex: 'code', sortField: 'code' },
    { key: 'regions', title: T.regions, render: (_, o) => o.regionNames.join('、') || T.none },
    {
      key: 'industries',
      title: T.industries,
      render: (_, o) => (
        <Typography.Text ellipsis={{ tooltip: o.industryNames.join('、') }} style={{ maxWidth: 220 }}>
          {o.industryNames.join('、') || T.none}
        </Typography.Text>
      ),
    },
    {
      key: 'qualified',
      title: T.qualifications,
      render: (_, o) => (
        <Tooltip
          title={o.qualifications
            .map((q) => `${q.name}（${q.certNo}）${q.validFrom} 至 ${q.validTo}`)
            .join('；')}
        >
          <Tag color={o.qualified ? 'success' : 'error'}>{o.qualified ? T.qualified : T.unqualified}</Tag>
          {o.qualifications.length}
        </Tooltip>
      ),
    },
    {
      key: 'contacts',
      title: T.contacts,
      render: (_, o) =>
        o.contacts.map((c) => (
          <div key={`${c.name}-${c.phone}`}>
            {c.name} {c.phone}
          </div>
        )),
    },
    { key: 'personCount', title: T.personCount, dataIndex: 'personCount' },
    {
      key: 'memberCount',
      title: M.title,
      dataIndex: 'memberCount',
      // Without an account, nobody of the organisation sees its orders: say so.
      render: (n: number) => (n > 0 ? n : <Tag color="warning">{M.unlinked}</Tag>),
    },
    { key: 'enabled', title: T.status, dataIndex: 'enabled', render: (v: boolean) => enabledTag(v) },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
      fixed: 'right',
      render: (_, o) => (
        <Space size={0}>
          <RowAction permission="service_org:list" onClick={() => navigate(orgEditPath(o.id, true))}>
            {T.view}
          </RowAction>
          <RowAction permission="service_org:edit" onClick={() => navigate(orgEditPath(o.id, false))}>
            {T.edit}
          </RowAction>
          <RowAction
            permission="service_person:list"
            onClick={() => persons.setFilters({ ...persons.filters, orgId: o.id })}
          >
            {T.orgPersons}
          </RowAction>
          <RowAction permission="service_org:del" danger onClick={() => deleteRows([o])}>
            {T.delete}
          </RowAction>
        </Space>
      ),
    },
  ];
  return (
    <>
      <SearchForm fields={ORG_SEARCH} list={list} />
      <CrudTable<ServiceOrgRow>
        id="riskControl.orgs"
        resource={orgsResource}
        list={list}
        columns={columns}
        toolbar={
          <Can code="service_org:add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(orgEditPath(0, false))}>
              {T.addOrg}
            </Button>
          </Can>
        }
      />
    </>
  );
}

function Persons() {
  const list = useListState({ prefix: 'person', filterKeys: PERSON_KEYS });
  const navigate = useNavigate();
  const orgs = useQuery(orgOptionsQuery());
  const deleteRows = useDeleteRows(personsResource, {
    warning: '已参与服务的人员不能删除，只能停用。',
  });
  const search: SearchField[] = [
    { kind: 'input', name: 'blurry', label: T.keyword, placeholder: '姓名、专业领域或证书编号', width: 220 },
    {
      kind: 'select',
      name: 'orgId',
      label: T.org,
      options: (orgs.data ?? []).map((o) => ({ value: String(o.id), label: o.name })),
      width: 240,
    },
    {
      kind: 'select',
      name: 'expert',
      label: T.expert,
      options: [
        { value: 'true', label: T.yes },
        { value: 'false', label: T.no },
      ],
      width: 100,
    },
    { kind: 'select', name: 'enabled', label: T.status, options: ENABLED_OPTIONS, width: 100 },
  ];
  const orgFilter = Number(list.filters.orgId) || undefined;
  const columns: CrudColumn<ServicePersonRow>[] = [
    {
      key: 'name',
      title: T.personName,
      dataIndex: 'name',
      sortField: 'name',
      alwaysVisible: true,
      render: (_, p) => (
        <Typography.Link onClick={() => navigate(personEditPath(p.id, true))}>{p.name}</Typography.Link>
      ),
    },
    { key: 'org', title: T.org, dataIndex: 'orgName' },
    { key: 'specialty', title: T.specialty, dataIndex: 'specialty' },
    { key: 'title', title: T.title, dataIndex: 'title', render: (v) => v ?? T.none },
    {
      key: 'expert',
      title: T.expert,
      dataIndex: 'expert',
      render: (v: boolean) => (v ? <Tag color="warning">{T.expert}</Tag> : T.none),
    },
    {
      key: 'certificate',
      title: T.certificate,
      render: (_, p) => (
        <div>
          <div>
            {p.certificateName} {p.certificateNo}
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {p.certificateValidFrom} 至 {p.certificateValidTo}{' '}
          </Typography.Text>
          <Tag color={p.certificateValid ? 'success' : 'error'}>
            {p.certificateValid ? T.certificateValid : T.certificateExpired}
          </Tag>
        </div>
      ),
    },
    {
      key: 'certificateValidTo',
      title: T.certificateTo,
      dataIndex: 'certificateValidTo',
      sortField: 'certificateValidTo',
      defaultHidden: true,
    },
    { key: 'phone', title: T.phone, dataIndex: 'phone' },
    { key: 'enabled', title: T.status, dataIndex: 'enabled', render: (v: boolean) => enabledTag(v) },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
      fixed: 'right',
      render: (_, p) => (
        <Space size={0}>
          <RowAction permission="service_person:list" onClick={() => navigate(personEditPath(p.id, true))}>
            {T.view}
          </RowAction>
          <RowAction permission="service_person:edit" onClick={() => navigate(personEditPath(p.id, false))}>
            {T.edit}
          </RowAction>
          <RowAction permission="service_person:del" danger onClick={() => deleteRows([p])}>
            {T.delete}
          </RowAction>
        </Space>
      ),
    },
  ];
  return (
    <>
      <SearchForm fields={search} list={list} name="person-search" />
      <CrudTable<ServicePersonRow>
        id="riskControl.persons"
        resource={personsResource}
        list={list}
        columns={columns}
        toolbar={
          <Can code="service_person:add">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => navigate(personEditPath(0, false, orgFilter))}
            >
              {T.addPerson}
            </Button>
          </Can>
        }
      />
    </>
  );
}

export default function Expert() {
  return (
    <CrudPage title={T.orgs}>
      <Orgs />
      <Can code="service_person:list">
        <Card
          variant="borderless"
          title={T.experts}
          style={{ marginTop: 16 }}
          styles={{ body: { padding: 0 } }}
        >
          <Persons />
        </Card>
      </Can>
    </CrudPage>
  );
}
