import { REVIEW_STATUS_LABELS, type ReviewStatus } from '@piibs/shared/review';
import { Tag } from 'antd';

const COLORS: Readonly<Record<ReviewStatus, string>> = {
  pending: 'processing',
  approved: 'success',
  returned: 'warning',
  rejected: 'error',
};

/** A review status as a coloured tag, with the shared labels (待审核 / 审核通过 / 已退回 / 已拒绝). */
export function ReviewStatusTag({ status }: { status: ReviewStatus }) {
  return <Tag color={COLORS[status]}>{REVIEW_STATUS_LABELS[status] ?? status}</Tag>;
}
