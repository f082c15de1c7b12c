// Read-only pieces of changes (批改): a change's fields before → after with the premium difference, and the
// endorsements (批单) issued against a policy, each with its PDF.
import { formatTime } from '@piibs/shared/constants';
import { formatFen } from '@piibs/shared/money';
import {
  changesBetween,
  type DeclarationDetail,
  type EndorsementRow,
  premiumDiffText,
} from '@piibs/shared/project-order';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { DetailTable } from '@/components/crud/DetailTable.tsx';
import { downloadEndorsementPdf, policyEndorsementsQuery } from '../api.ts';

/** What a change changes: each changed field before → after, and the premium before, after and the difference. */
export function ChangeComparison({ declaration: d }: { declaration: DeclarationDetail }) {
  if (!d.base) return null;
  const changes = changesBetween(d.base, d);
  const diff = d.premiumFen - d.base.premiumFen;
  return (
    <DetailTable
      noun="批改项目"
      size="small"
      rowKey="key"
      data-testid="change-comparison"
      locale={{ emptyText: '未变更项目信息' }}
      dataSource={[
        ...changes.map((c) => ({ key: c.field, label: c.label, before: c.before, after: c.after })),
        {
          key: 'premium',
          label: '保费',
          before: formatFen(d.base.premiumFen),
          after: `${formatFen(d.premiumFen)}（${premiumDiffText(diff)}）`,
        },
      ]}
      columns={[
        { key: 'label', title: '批改项目', dataIndex: 'label', width: 120 },
        { key: 'before', title: '批改前', dataIndex: 'before' },
        {
          key: 'after',
          title: '批改后',
          dataIndex: 'after',
          render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
        },
      ]}
    />
  );
}

function DownloadEndorsement({ endorsement: e }: { endorsement: EndorsementRow }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      type="link"
      size="small"
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadEndorsementPdf(e.id, e.number);
        } catch {
          // The HTTP client has already shown what went wrong.
        } finally {
          setBusy(false);
        }
      }}
    >
      下载批单
    </Button>
  );
}

/** Endorsements with what each changed, the premium difference and the PDF; `changePath` links the change. */
export function EndorsementTable({
  endorsements,
  changePath,
}: {
  endorsements: readonly EndorsementRow[];
  changePath?: (declarationId: number) => string;
}) {
  return (
    <DetailTable<EndorsementRow>
      noun="批单"
      size="small"
      rowKey="id"
      dataSource={[...endorsements]}
      locale={{ emptyText: '暂无批单' }}
      scroll={{ x: 'max-content' }}
      columns={[
        { key: 'number', title: '批单号', dataIndex: 'number' },
        {
          key: 'declaration',
          title: '批改申报',
          dataIndex: 'declarationNumber',
          render: (number: string, row) =>
            changePath ? <Link to={changePath(row.declarationId)}>{number}</Link> : number,
        },
        {
          key: 'changes',
          title: '批改内容',
          render: (_, row) =>
            row.changes.map((c) => (
              <div key={c.field}>
                {c.label}：{c.before} → {c.after}
              </div>
            )),
        },
        {
          key: 'diff',
          title: '保费差额',
          dataIndex: 'premiumDiffFen',
          render: (fen: number) => premiumDiffText(fen),
        },
        { key: 'effectiveDate', title: '生效日期', dataIndex: 'effectiveDate' },
        { key: 'issuedAt', title: '出单时间', dataIndex: 'issuedAt', render: (v: string) => formatTime(v) },
        { key: 'pdf', title: '批单', render: (_, row) => <DownloadEndorsement endorsement={row} /> },
      ]}
    />
  );
}

/** The endorsement of one change, once issued. */
export function EndorsementFacts({ endorsement: e }: { endorsement: EndorsementRow }) {
  return (
    <Descriptions size="small" bordered column={{ xs: 1, md: 2 }}>
      <Descriptions.Item label="批单号">
        <span data-testid="endorsement-number">{e.number}</span>
      </Descriptions.Item>
      <Descriptions.Item label="批改的保单">{e.policyNumber}</Descriptions.Item>
      <Descriptions.Item label="保费差额">{premiumDiffText(e.premiumDiffFen)}</Descriptions.Item>
      <Descriptions.Item label="生效日期">{e.effectiveDate} 零时</Descriptions.Item>
      <Descriptions.Item label="出单时间">{formatTime(e.issuedAt)}</Descriptions.Item>
      <Descriptions.Item label="批单">
        <DownloadEndorsement endorsement={e} />
      </Descriptions.Item>
    </Descriptions>
  );
}

/** 批单 of a policy (policyInsuranceView): shown only when the policy has any. */
export function PolicyEndorsements({
  policyId,
  changePath,
}: {
  policyId: number;
  changePath?: (declarationId: number) => string;
}) {
  const query = useQuery(policyEndorsementsQuery(policyId));
  if (!query.data?.length) return null;
  return (
    <Card variant="borderless" title="批单">
      <EndorsementTable endorsements={query.data} {...(changePath ? { changePath } : {})} />
    </Card>
  );
}
