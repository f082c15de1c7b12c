// On the view of an epinsure (construction) application: the annual order made from it, or, for staff who open
// annual orders, 生成年度订单 once the application is paid or issued — a small dialog asks the quota (the
// application's premium by default). The server makes one order per application, so a second click answers it.

import type { ApplicationDetail } from '@piibs/shared/application';
import type { ApplicationStatus } from '@piibs/shared/application-status';
import { fenToYuanText, yuanTextToFen } from '@piibs/shared/money';
import { orderDetailPath } from '@piibs/shared/project-order';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CrudModal } from '@/components/crud/CrudModal.tsx';
import { YuanInput } from '@/components/form/YuanInput.tsx';
import { yuanRule } from '@/components/form/zod-rule.ts';
import { useCan } from '@/lib/permission.tsx';
import {
  annualOrderFromApplication,
  invalidateProjects,
  orderOfApplicationQuery,
  PROJECT_PERMISSIONS,
} from '../api.ts';

/** The states in which the server converts an application (paid, issuing or issued). */
const CONVERTIBLE: readonly ApplicationStatus[] = ['PAID', 'ISSUED', 'IN_FORCE'];

export function ApplicationAnnualOrder({
  app,
}: {
  app: Pick<ApplicationDetail, 'id' | 'channel' | 'productClass' | 'status' | 'premiumFen'>;
}) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const canList = useCan(PROJECT_PERMISSIONS.list);
  const canAdd = useCan(PROJECT_PERMISSIONS.add);
  const framework = app.channel === 'project' && app.productClass === 'construction';
  const order = useQuery({ ...orderOfApplicationQuery(app.id), enabled: framework && canList });
  const [open, setOpen] = useState(false);

  if (!framework || order.isPending) return null;
  if (order.data)
    return (
      <Link to={orderDetailPath(order.data.id)} data-testid="application-annual-order">
        年度订单 {order.data.number}
      </Link>
    );
  if (!canAdd || !CONVERTIBLE.includes(app.status)) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)}>生成年度订单</Button>
      <CrudModal<{ quotaYuan?: string | null }, never>
        open={open}
        title="生成年度订单"
        okText="生成"
        initialValues={{ quotaYuan: app.premiumFen ? fenToYuanText(app.premiumFen) : null }}
        fieldNames={{ quotaFen: 'quotaYuan' }}
        onClose={() => setOpen(false)}
        onSubmit={(v) =>
          annualOrderFromApplication(app.id, {
            quotaFen: v.quotaYuan ? (yuanTextToFen(String(v.quotaYuan)) ?? 0) : 0,
          })
        }
        onSaved={(result) => {
          void invalidateProjects(client);
          navigate(orderDetailPath((result as { id: number }).id));
        }}
      >
        <Form.Item
          name="quotaYuan"
          label="保费额度"
          rules={[{ required: true, message: '请输入保费额度' }, yuanRule()]}
          extra="施工企业年度内各项目申报保费合计不超过此额度（默认为本投保单保费）"
        >
          <YuanInput />
        </Form.Item>
      </CrudModal>
    </>
  );
}
