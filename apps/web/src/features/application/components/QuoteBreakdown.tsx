import type { CoinsurerRow } from '@piibs/shared/application';
import { collectionNotice } from '@piibs/shared/coinsurance';
import { formatFen, microPercentText, multiplierText, rateText } from '@piibs/shared/money';
import { MIN_PREMIUM_LINE } from '@piibs/shared/quote';
import type { PremiumQuote } from '@piibs/shared/rating';
import { Alert, Descriptions, Typography } from 'antd';
import { DetailTable } from '@/components/crud/DetailTable.tsx';
import { DictLabel } from '@/lib/dict.tsx';

export interface BreakdownProps {
  quote: Pick<PremiumQuote, 'premiumFen' | 'basePremiumFen' | 'combinedMultiplier' | 'lines' | 'factors'>;
  preventionRatio: number;
  preventionFeeFen: number;
  /** The rate-table version priced on ("第 3 版，2026-01-01 生效"), when known. */
  tableText?: string | null;
  /** One figure per row, for a narrow column (the wizard's live premium). */
  compact?: boolean;
}

/** The premium by coverage line and by factor, the prevention fee: what the applicant confirms. */
export function QuoteBreakdown({
  quote,
  preventionRatio,
  preventionFeeFen,
  tableText,
  compact = false,
}: BreakdownProps) {
  return (
    <>
      <Descriptions
        size="small"
        column={compact ? 1 : { xs: 1, md: 3 }}
        bordered
        style={{ marginBottom: 16 }}
      >
        <Descriptions.Item label="应缴保费">
          <Typography.Text strong data-testid="premium" style={{ fontSize: 18 }}>
            {formatFen(quote.premiumFen)}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={`事故预防费用（${microPercentText(preventionRatio)}%）`}>
          <span data-testid="prevention-fee">{formatFen(preventionFeeFen)}</span>
        </Descriptions.Item>
        <Descriptions.Item label="基础保费 × 综合系数">
          {formatFen(quote.basePremiumFen)} × {quote.combinedMultiplier}
        </Descriptions.Item>
        {tableText ? (
          <Descriptions.Item label="费率表" span={compact ? 1 : 3}>
            {tableText}
          </Descriptions.Item>
        ) : null}
      </Descriptions>
      <DetailTable
        noun="保费明细"
        size="small"
        rowKey="key"
        title={() => '保费明细（按责任）'}
        dataSource={quote.lines}
        columns={[
          { key: 'label', title: '责任 / 计费基础', dataIndex: 'label' },
          {
            key: 'base',
            title: '计费基数',
            dataIndex: 'baseFen',
            render: (v: number, l) => (l.key === MIN_PREMIUM_LINE ? '—' : formatFen(v)),
          },
          {
            key: 'rate',
            title: '费率',
            dataIndex: 'rate',
            render: (v: number, l) => (l.key === MIN_PREMIUM_LINE ? '—' : rateText(v)),
          },
          { key: 'premium', title: '保费', dataIndex: 'premiumFen', render: (v: number) => formatFen(v) },
        ]}
      />
      {quote.factors.length ? (
        <DetailTable
          noun="浮动因子"
          size="small"
          rowKey="code"
          style={{ marginTop: 12 }}
          title={() => '浮动因子'}
          dataSource={quote.factors}
          columns={[
            { key: 'label', title: '因子', dataIndex: 'label' },
            {
              key: 'option',
              title: '选项',
              dataIndex: 'optionLabel',
              render: (v: string | null) => v ?? '—',
            },
            {
              key: 'multiplier',
              title: '系数',
              dataIndex: 'multiplier',
              render: (v: number) => `× ${multiplierText(v)}`,
            },
            {
              key: 'delta',
              title: '保费变化',
              render: (_: unknown, f) =>
                `${formatFen(f.beforeFen)} → ${formatFen(f.afterFen)}（${f.deltaFen >= 0 ? '+' : '-'}${formatFen(Math.abs(f.deltaFen))}）`,
            },
          ]}
        />
      ) : null}
    </>
  );
}

type CoinsurerPartRow = Pick<
  CoinsurerRow,
  'insurerCode' | 'insurerName' | 'lead' | 'shareText' | 'premiumFen' | 'preventionFeeFen'
>;

/** Who collects the premium of a co-insured contract (the lead, settling each party's share); nothing if none. */
export function CollectionNotice({ rows }: { rows: CoinsurerPartRow[] }) {
  const notice = collectionNotice(rows);
  return notice ? (
    <Alert type="info" showIcon title={notice} data-testid="collection-notice" style={{ marginBottom: 8 }} />
  ) : null;
}

/** The co-insurers (the issuing insurer among them) with each one's share and parts in yuan. */
export function CoinsurerTable({ rows }: { rows: CoinsurerPartRow[] }) {
  return (
    <DetailTable
      noun="共保公司"
      size="small"
      rowKey="insurerCode"
      dataSource={rows}
      locale={{ emptyText: '不共保（本公司独家承保）' }}
      columns={[
        {
          key: 'insurer',
          title: '共保公司',
          render: (_: unknown, c) =>
            c.insurerName ?? <DictLabel dict="coinsurer" value={c.insurerCode} empty={c.insurerCode} />,
        },
        {
          key: 'lead',
          title: '主/从',
          dataIndex: 'lead',
          render: (lead: boolean) => (lead ? '主承保' : '从共保'),
        },
        { key: 'share', title: '份额', dataIndex: 'shareText', render: (v: string) => `${v}%` },
        { key: 'premium', title: '保费', dataIndex: 'premiumFen', render: (v: number) => formatFen(v) },
        {
          key: 'prevention',
          title: '事故预防费用',
          dataIndex: 'preventionFeeFen',
          render: (v: number) => formatFen(v),
        },
      ]}
    />
  );
}
