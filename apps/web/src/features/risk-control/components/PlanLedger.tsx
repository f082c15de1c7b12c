// The prevention fund's ledger: every movement with the planned, spent and left amounts after it; a card per
// movement on a phone (DetailTable).
import { formatTime } from '@piibs/shared/constants';
import { formatFen } from '@piibs/shared/money';
import type { LedgerEntryRow } from '@piibs/shared/risk-control';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { DetailTable } from '@/components/crud/DetailTable.tsx';
import { ledgerQuery } from '../api.ts';
import { RISK_TEXTS as T } from '../texts.ts';

export function PlanLedger({ seqNo }: { seqNo: string }) {
  const ledger = useQuery(ledgerQuery(seqNo));
  const [page, setPage] = useState(1);
  // The server answers oldest first; the latest movements lead here.
  const newestFirst = useMemo(() => [...(ledger.data?.entries ?? [])].reverse(), [ledger.data]);
  return (
    <DetailTable<LedgerEntryRow>
      noun={T.ledgerEntry}
      size="small"
      rowKey="id"
      loading={ledger.isFetching}
      dataSource={newestFirst}
      pages={{ current: page, pageSize: 10, onChange: setPage }}
      scroll={{ x: 'max-content' }}
      data-testid="ledger"
      columns={[
        { key: 'at', title: T.at, dataIndex: 'at', render: (v: string) => formatTime(v) },
        { key: 'kind', title: T.ledgerKind, dataIndex: 'kindLabel' },
        {
          key: 'amount',
          title: T.amount,
          dataIndex: 'amountFen',
          align: 'right',
          render: (v: number) => formatFen(v),
        },
        {
          key: 'plannedAfter',
          title: T.plannedAfter,
          dataIndex: 'plannedAfterFen',
          align: 'right',
          render: (v: number) => formatFen(v),
        },
        {
          key: 'spentAfter',
          title: T.spentAfter,
          dataIndex: 'spentAfterFen',
          align: 'right',
          render: (v: number) => formatFen(v),
        },
        {
          key: 'leftAfter',
          title: T.leftAfter,
          dataIndex: 'leftAfterFen',
          align: 'right',
          render: (v: number) => formatFen(v),
        },
        {
          key: 'order',
          title: T.orderNumber,
          dataIndex: 'orderNumber',
          render: (v: string | null) => v ?? T.none,
        },
        { key: 'note', title: T.remark, dataIndex: 'note', render: (v: string | null) => v ?? T.none },
        { key: 'actor', title: T.actor, dataIndex: 'actorName', render: (v: string | null) => v ?? T.none },
      ]}
    />
  );
}
