// State tags of risk control: a service order's status, a hazard's level and its rectification.
import {
  HAZARD_LEVEL_LABELS,
  HAZARD_STATUS_LABELS,
  type HazardLevel,
  type HazardStatus,
  SERVICE_ORDER_STATUS_LABELS,
  type ServiceOrderStatus,
} from '@piibs/shared/risk-control';
import { Tag } from 'antd';
import { RISK_TEXTS as T } from '../texts.ts';

const STATUS_COLORS: Readonly<Record<ServiceOrderStatus, string>> = {
  DISPATCHED: 'blue',
  ACCEPTED: 'cyan',
  REJECTED: 'error',
  IN_SERVICE: 'processing',
  SUBMITTED: 'warning',
  CONFIRMED: 'purple',
  CLOSED: 'success',
  CANCELLED: 'default',
};

export function OrderStatusTag({ status }: { status: ServiceOrderStatus }) {
  return (
    <Tag color={STATUS_COLORS[status]} data-status={status}>
      {SERVICE_ORDER_STATUS_LABELS[status] ?? status}
    </Tag>
  );
}

const LEVEL_COLORS: Readonly<Record<HazardLevel, string>> = {
  GENERAL: 'warning',
  SERIOUS: 'orange',
  MAJOR: 'red',
};

export function HazardLevelTag({ level }: { level: HazardLevel }) {
  return <Tag color={LEVEL_COLORS[level]}>{HAZARD_LEVEL_LABELS[level] ?? level}</Tag>;
}

export function HazardStatusTag({ status, overdue }: { status: HazardStatus; overdue?: boolean }) {
  return (
    <>
      <Tag color={status === 'RECTIFIED' ? 'success' : 'warning'}>
        {HAZARD_STATUS_LABELS[status] ?? status}
      </Tag>
      {overdue ? <Tag color="error">{T.overdue}</Tag> : null}
    </>
  );
}
