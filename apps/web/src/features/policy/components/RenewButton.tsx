// 续保: shown from 90 days before a policy's end through its end day (Asia/Shanghai). Asks once, posts
// /api/policies/:id/renew and opens the new draft in the caller's wizard (agents: /piibs/agent/stepOne/:id/:type,
// projects: /piibs/epinsure/…, others: /piibs/insured/…). A renewal already under way is offered as 继续续保.

import type { PolicyholderType } from '@piibs/shared/application-status';
import { shanghaiToday } from '@piibs/shared/application-status';
import { ROLE_CODES } from '@piibs/shared/role-codes';
import {
  RENEWAL_WINDOW_DAYS,
  type RenewalResult,
  renewalPeriod,
  renewalState,
  renewalWindow,
} from '@piibs/shared/sales';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import { FLOWS, stepPath } from '@/features/application/flows.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { useUserStore } from '@/stores/user.ts';
import { renewalInfoQuery, renewPolicy } from '../api.ts';
import { SALES_TEXTS as T } from '../texts.ts';

/** The first wizard step of a renewal draft for the caller. */
export function renewalWizardPath(
  draft: Pick<RenewalResult, 'applicationId' | 'channel' | 'policyholderType'>,
  roles: readonly string[],
): string {
  const type: PolicyholderType = draft.policyholderType === 2 ? 2 : 1;
  const flow =
    draft.channel === 'project'
      ? FLOWS.epinsure
      : roles.includes(ROLE_CODES.agent) && !roles.includes(ROLE_CODES.enterprise)
        ? FLOWS.agent
        : FLOWS.insured;
  return stepPath(flow, 'stepOne', draft.applicationId, type);
}

export interface RenewButtonProps extends Omit<ButtonProps, 'onClick' | 'loading' | 'children'> {
  policyId: number;
  /** The policy's end date, yyyy-mm-dd. */
  endDate: string;
  /** Today (Asia/Shanghai), for tests; defaults to now. */
  today?: string;
}

export function RenewButton({ policyId, endDate, today, ...buttonProps }: RenewButtonProps) {
  const inWindow = renewalState(endDate, today ?? shanghaiToday()) === 'open';
  const roles = useUserStore((state) => state.roles);
  const navigate = useNavigate();
  const client = useQueryClient();
  const { modal, message } = useAppApis();
  const [busy, setBusy] = useState(false);
  // Only inside the window is it worth asking whether a renewal is already under way.
  const info = useQuery({ ...renewalInfoQuery(policyId), enabled: inWindow, retry: false });
  if (!inWindow) return null;
  const existing = info.data?.renewal ?? null;

  if (existing)
    return (
      <Button
        {...buttonProps}
        onClick={() =>
          navigate(
            renewalWizardPath(
              {
                applicationId: existing.applicationId,
                channel: existing.channel,
                policyholderType: existing.policyholderType,
              },
              roles,
            ),
          )
        }
      >
        {T.continueRenewal}
      </Button>
    );
  if (info.data && !info.data.canRenew) return null;

  const renew = async () => {
    setBusy(true);
    try {
      const draft = await renewPolicy(policyId);
      await client.invalidateQueries({ queryKey: renewalInfoQuery(policyId).queryKey });
      if (draft.quoteProblem) void message.warning(T.quoteProblem(draft.quoteProblem));
      else void message.success(T.renewed(draft.number));
      navigate(renewalWizardPath(draft, roles));
    } catch (err) {
      const refusal = serverError(err);
      if (refusal) modal.error({ title: T.renew, content: refusal.message });
      await client.invalidateQueries({ queryKey: renewalInfoQuery(policyId).queryKey });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      type="primary"
      {...buttonProps}
      loading={busy}
      onClick={() =>
        modal.confirm({
          title: T.renewConfirm,
          content: T.renewConfirmHint(renewalPeriod(endDate).startDate),
          okText: T.renew,
          cancelText: '取消',
          onOk: renew,
        })
      }
    >
      {T.renew}
    </Button>
  );
}

/**
 * When the policy can be renewed, in words: open now (until the end day), opening on a day (90 days before the
 * end), or lapsed (insure anew). A cancelled policy is not renewed.
 */
export function renewalHint(
  policy: { endDate: string; status: string },
  today: string = shanghaiToday(),
): string | null {
  if (policy.status === 'CANCELLED') return null;
  const state = renewalState(policy.endDate, today);
  const { opensOn, closesOn } = renewalWindow(policy.endDate);
  if (state === 'open') return `续保已开放：可于 ${closesOn}（保单到期日）前续保`;
  if (state === 'early') return `续保将于 ${opensOn} 开放（保单到期前 ${RENEWAL_WINDOW_DAYS} 天）`;
  return `保单已于 ${policy.endDate} 到期，不能续保，请重新投保`;
}
