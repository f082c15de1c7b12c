import type { ApplicationDetail } from '@piibs/shared/application';
import { APPLICATION_STATUS_LABELS } from '@piibs/shared/application-status';
import { formatFen } from '@piibs/shared/money';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { type FlowDef, INSURE_LIST_PATH, stepPath } from '../flows.ts';

/** 提交审核 / 提交成功: the application waits for the underwriter. */
export function SuccessStep({ app, flow }: { app: ApplicationDetail; flow: FlowDef }) {
  const navigate = useNavigate();
  const view = flow.viewPath ? `${flow.viewPath}/${app.id}/${app.policyholderType}` : null;
  const submitted = app.status !== 'DRAFT' && app.status !== 'RETURNED';
  return (
    <Result
      status={submitted ? 'success' : 'info'}
      title={submitted ? '投保单已提交审核' : `投保单尚未提交（${APPLICATION_STATUS_LABELS[app.status]}）`}
      subTitle={
        submitted
          ? `投保单号 ${app.number}，应缴保费 ${formatFen(app.premiumFen)}。核保人员审核后将通知您；审核通过后可在投保单列表中支付。`
          : '请完成各步骤后提交审核。'
      }
      extra={[
        submitted ? null : (
          <Button
            key="continue"
            type="primary"
            onClick={() => navigate(stepPath(flow, flow.steps[0]!.path, app.id, app.policyholderType))}
          >
            继续填写
          </Button>
        ),
        view ? (
          <Button key="view" type={submitted ? 'primary' : 'default'} onClick={() => navigate(view)}>
            查看投保单
          </Button>
        ) : null,
        <Button key="list" onClick={() => navigate(INSURE_LIST_PATH)}>
          投保单列表
        </Button>,
        <Button
          key="new"
          onClick={() => navigate(stepPath(flow, flow.steps[0]!.path, 0, app.policyholderType))}
        >
          继续投保
        </Button>,
      ]}
    />
  );
}
