import { formatTime } from '@piibs/shared/constants';
import type { SalespersonChangeRow } from '@piibs/shared/sales';
import { DetailTable } from '@/components/crud/DetailTable.tsx';
import { SALES_TEXTS as T } from '../texts.ts';

/** The salesperson changes of a supplement, newest first: when, old → new, why, by whom. */
export function ChangeHistory({ rows }: { rows: SalespersonChangeRow[] }) {
  return (
    <DetailTable<SalespersonChangeRow>
      noun="变更记录"
      size="small"
      rowKey="id"
      dataSource={rows}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: T.noHistory }}
      columns={[
        { key: 'at', title: T.changedAt, dataIndex: 'at', render: (v: string) => formatTime(v) },
        {
          key: 'change',
          title: T.change,
          render: (_, c) => `${c.oldName}（${c.oldNo}） → ${c.newName}（${c.newNo}）`,
        },
        { key: 'reason', title: T.reason, dataIndex: 'reason' },
        { key: 'actor', title: T.operator, dataIndex: 'actor', render: (v: string | null) => v ?? T.none },
      ]}
    />
  );
}
