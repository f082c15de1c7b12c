// 从业人员名单 on the policy page, for a policy that has one: each person with the identity card number masked,
// and whether an endorsement added or removed them as of its effective date. Nothing when the policy has no list.
import type { PolicyInsuredPersonRow } from '@piibs/shared/named-insured';
import { useQuery } from '@tanstack/react-query';
import { Card } from 'antd';
import { InsuredPersonsTable } from '@/components/insured/InsuredPersonsTable.tsx';
import { policyInsuredQuery } from '../api.ts';

export const INSURED_TEXTS = Object.freeze({
  title: (n: number) => `从业人员名单（现有 ${n} 人）`,
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
      <InsuredPersonsTable
        label={T.title(list.count)}
        persons={list.persons}
        more={[{ title: T.state, key: 'state', render: (_, p) => stateOf(p) }]}
      />
    </Card>
  );
}
