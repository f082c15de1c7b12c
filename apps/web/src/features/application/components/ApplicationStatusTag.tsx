import { APPLICATION_STATUS_LABELS, type ApplicationStatus } from '@piibs/shared/application-status';
import { Tag } from 'antd';

const STATUS_COLORS: Partial<Record<ApplicationStatus, string>> = {
  DRAFT: 'default',
  PENDING_REVIEW: 'processing',
  RETURNED: 'warning',
  DECLINED: 'error',
  PENDING_PAYMENT: 'warning',
  PAID: 'cyan',
  PAYMENT_EXPIRED: 'default',
  CANCELLED: 'default',
  ISSUED: 'success',
  IN_FORCE: 'success',
  EXPIRED: 'default',
};

export function ApplicationStatusTag({ status }: { status: ApplicationStatus }) {
  return <Tag color={STATUS_COLORS[status]}>{APPLICATION_STATUS_LABELS[status]}</Tag>;
}
