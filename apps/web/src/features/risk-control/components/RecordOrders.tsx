// The service orders of one prevention record, with the actions each allows.

import { formatFen } from '@piibs/shared/money';
import type { ServiceOrderRow } from '@piibs/shared/risk-control';
import { Space } from 'antd';
import { Link } from 'react-router';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { ordersResource, viewPath } from '../api.ts';
import { RISK_TEXTS as T } from '../texts.ts';
import { useOrderActions } from './OrderActions.tsx';
import { OrderStatusTag } from './tags.tsx';

export function RecordOrders({ seqNo }: { seqNo: string }) {
  const list = useListState({ prefix: 'order', filterKeys: [], defaultSort: 'id,desc' });
  const { buttons, dialog } = useOrderActions({ mode: 'list' });
  const columns: CrudColumn<ServiceOrderRow>[] = [
    {
      key: 'number',
      title: T.orderNumber,
      dataIndex: 'number',
      alwaysVisible: true,
      render: (_, o) => <Link to={viewPath(o.seqNo, o.number)}>{o.number}</Link>,
    },
    { key: 'item', title: T.itemType, dataIndex: 'itemLabel' },
    { key: 'org', title: T.org, dataIndex: 'orgName' },
    { key: 'scheduledDate', title: T.scheduledDate, dataIndex: 'scheduledDate', sortField: 'scheduledDate' },
    { key: 'cost', title: T.cost, dataIndex: 'costFen', align: 'right', render: (v: number) => formatFen(v) },
    {
      key: 'status',
      title: T.status,
      dataIndex: 'status',
      render: (_, o) => <OrderStatusTag status={o.status} />,
    },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
      render: (_, o) => (
        <Space size={0} wrap>
          <Link to={viewPath(o.seqNo, o.number)} style={{ padding: '0 7px' }}>
            {T.view}
          </Link>
          {buttons(o)}
        </Space>
      ),
    },
  ];
  return (
    <>
      <CrudTable<ServiceOrderRow>
        id="riskControl.recordOrders"
        resource={ordersResource}
        list={list}
        columns={columns}
        query={{ seqNo }}
        selectable={false}
        addHint={false}
      />
      {dialog}
    </>
  );
}
