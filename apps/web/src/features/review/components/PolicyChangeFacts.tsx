// What an endorsement (批改) or cancellation (退保) request asks, as the underwriter reads it: the kind in words,
// the premium it moves in money, and each changed item before → after.
import { formatFen } from '@piibs/shared/money';
import type { PolicyChangeView } from '@piibs/shared/policy-change';
import { Typography } from 'antd';
import { DetailTable } from '@/components/crud/DetailTable.tsx';

/** What a request does to the premium, in money: 补缴 ¥…, 退还 ¥…, 保费不变. */
export function premiumDeltaWords(fen: number): string {
  if (fen > 0) return `补缴 ${formatFen(fen)}`;
  if (fen < 0) return `退还 ${formatFen(-fen)}`;
  return '保费不变';
}

/** 批改 / 退保, and for a cancellation its reason. */
export const kindWords = (r: Pick<PolicyChangeView, 'kindLabel' | 'reasonLabel'>) =>
  r.kindLabel + (r.reasonLabel ? `（${r.reasonLabel}）` : '');

const peopleWords = (people: { name: string; idNumberMasked: string }[]) =>
  people.map((p) => `${p.name}（${p.idNumberMasked}）`).join('、');

/**
 * 批改前 → 批改后: each changed item, the people a named-list endorsement adds and removes (by name, numbers masked),
 * then the premium held before and after (and, cancelled, what is earned).
 */
export function PolicyChangeComparison({ change: c }: { change: PolicyChangeView }) {
  const rows = [
    ...c.changes.map((x) => ({ key: x.field, label: x.label, before: x.before, after: x.after })),
    ...(c.persons?.added.length
      ? [{ key: 'added', label: '增加人员', before: '—', after: peopleWords(c.persons.added) }]
      : []),
    ...(c.persons?.removed.length
      ? [{ key: 'removed', label: '减少人员', before: peopleWords(c.persons.removed), after: '—' }]
      : []),
    {
      key: 'premium',
      label: '已收保费',
      before: formatFen(c.premiumBeforeFen),
      after: `${formatFen(c.premiumBeforeFen + c.premiumDeltaFen)}（${premiumDeltaWords(c.premiumDeltaFen)}）`,
    },
    ...(c.earnedFen !== null && c.basis
      ? [{ key: 'earned', label: '已赚保费', before: '—', after: `${formatFen(c.earnedFen)}（${c.basis}）` }]
      : []),
  ];
  return (
    <DetailTable
      noun="变更项目"
      size="small"
      rowKey="key"
      scroll={{ x: 'max-content' }}
      data-testid="policy-change-comparison"
      dataSource={rows}
      columns={[
        { key: 'label', title: '项目', dataIndex: 'label', width: 120 },
        { key: 'before', title: '变更前', dataIndex: 'before' },
        {
          key: 'after',
          title: '变更后',
          dataIndex: 'after',
          render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
        },
      ]}
    />
  );
}
