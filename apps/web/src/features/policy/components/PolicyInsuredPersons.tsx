// 从业人员名单 on the policy page, for a policy that has one: each person with the identity card number masked,
// and whether an endorsement added or removed them as of its effective date. Nothing when the policy has no list.
import type { PolicyInsuredPersonRow } from '@piibs/shared/named-insured';
import { useQuery } from '@tanstack/react-query';
import { Card, Table } from 'antd';
import { policyInsuredQuery } from '../api.ts';

export const INSURED_TEXTS = Object.freeze({
  title: (n: number) => `从业人员名单（现有 ${n} 人）`,
  sort: '序号',
  name: '姓名',
  idNumber: '身份证号码',
  state: '状态',
  covered: '在保',
  added: (d: string) => `批改增加（自 ${d} 起）`,
  removed: (d: string) => `批改减少（自 ${d} 起不再承保）`,
});
const T = INSURED_TEXTS;

const stateOf = (p: PolicyInsuredPersonRow): string =>
  p.removedOn ? T.removed(p.removedOn) : p.addedOn ? T.added(p.addedOn) : T.covered;

export function PolicyInsuredPersons({ policyId }: { policyId: number }) {
  const query = useQuery(policyInsuredQuery(policyId));
  const list = query.data;
  if (!list || list.persons.length === 0) return null;
  return (
    <Card variant="borderless" title={T.title(list.count)} data-testid="policy-insured-persons">
      {/* A narrow screen scrolls the table sideways in a region the keyboard can reach. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1) */}
      <section aria-label={T.title(list.count)} tabIndex={0} style={{ overflowX: 'auto' }}>
        <Table<PolicyInsuredPersonRow>
          rowKey="sort"
          size="small"
          dataSource={list.persons}
          pagination={list.persons.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          columns={[
            { title: T.sort, dataIndex: 'sort', width: 64 },
            { title: T.name, dataIndex: 'name' },
            { title: T.idNumber, dataIndex: 'idNumberMasked' },
            { title: T.state, key: 'state', render: (_, p) => stateOf(p) },
          ]}
        />
      </section>
    </Card>
  );
}
