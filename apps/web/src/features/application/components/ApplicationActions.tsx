import type { ApplicationRow } from '@piibs/shared/application';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Space } from 'antd';
import { useNavigate } from 'react-router';
import { errorMessage, invalidateResource } from '@/components/crud/resource.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { useUserStore } from '@/stores/user.ts';
import { applicationQuery, applicationsResource, cancelApplication } from '../api.ts';
import { flowOf, stepPath, viewPathOf } from '../flows.ts';

/** The payment page of an approved application (spec: insured/viewInsuranceCA/:id). */
export const payPath = (id: number) => `/piibs/insured/viewInsuranceCA/${id}`;

/**
 * What the caller may do with an application now, as the server says (`actions`): continue the wizard, view,
 * cancel (confirmed), pay. `omitView` on the view page itself.
 */
export function ApplicationActions({
  row,
  size = 'small',
  omitView = false,
  onCancelled,
}: {
  row: ApplicationRow;
  size?: 'small' | 'middle';
  omitView?: boolean;
  onCancelled?: () => void;
}) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const { modal, message } = useAppApis();
  const roles = useUserStore((state) => state.roles);
  const link = size === 'small';

  const cancel = () =>
    modal.confirm({
      title: '撤销投保单',
      content: `确定撤销投保单 ${row.number} 吗？撤销后不能恢复。`,
      okText: '撤销',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await cancelApplication(row.id, row.version);
          void message.success('投保单已撤销');
          await client.invalidateQueries({ queryKey: applicationQuery(row.id).queryKey });
          await invalidateResource(client, applicationsResource);
          onCancelled?.();
        } catch (err) {
          void message.error(errorMessage(err));
        }
      },
    });

  const button = (key: string, text: string, onClick: () => void, extra: object = {}) => (
    <Button key={key} type={link ? 'link' : 'default'} size={size} onClick={onClick} {...extra}>
      {text}
    </Button>
  );
  return (
    <Space size={link ? 0 : 8} wrap>
      {row.actions.includes('continue')
        ? button('continue', '继续填写', () =>
            navigate(stepPath(flowOf(row), flowOf(row).steps[0]!.path, row.id, row.policyholderType)),
          )
        : null}
      {row.actions.includes('view') && !omitView
        ? button('view', '查看', () => navigate(viewPathOf(row, roles)))
        : null}
      {row.actions.includes('pay')
        ? button('pay', '去支付', () => navigate(payPath(row.id)), link ? {} : { type: 'primary' })
        : null}
      {row.actions.includes('cancel') ? button('cancel', '撤销', cancel, { danger: true }) : null}
    </Space>
  );
}
