// The prevention fund of a policy: total, planned (reserved), spent and left in yuan, and a progress bar whose
// green part is what was spent and whose blue part also counts what is reserved.

import { formatFen } from '@piibs/shared/money';
import type { FundSummary as Fund } from '@piibs/shared/risk-control';
import { Col, Progress, Row, Statistic } from 'antd';
import { RISK_TEXTS as T } from '../texts.ts';

/** Percentages of the total, one decimal: spent, and spent + planned (what is no longer free). */
export function fundPercents(f: Fund): { used: number; spent: number } {
  if (f.totalFen <= 0) return { used: 0, spent: 0 };
  const pct = (fen: number) => Math.min(100, Math.round((fen * 1000) / f.totalFen) / 10);
  return { used: pct(f.plannedFen + f.spentFen), spent: pct(f.spentFen) };
}

export function FundSummary({ fund }: { fund: Fund }) {
  const p = fundPercents(fund);
  const items: [string, number, string][] = [
    [T.fundTotal, fund.totalFen, 'fund-total'],
    [T.fundPlanned, fund.plannedFen, 'fund-planned'],
    [T.fundSpent, fund.spentFen, 'fund-spent'],
    [T.fundLeft, fund.leftFen, 'fund-left'],
  ];
  return (
    <div>
      <Row gutter={[16, 16]}>
        {items.map(([title, fen, id]) => (
          <Col xs={12} md={6} key={id} data-testid={id}>
            <Statistic title={title} value={formatFen(fen)} />
          </Col>
        ))}
      </Row>
      <Progress
        percent={p.used}
        success={{ percent: p.spent }}
        format={() => T.fundProgress(p.used)}
        style={{ marginTop: 16 }}
        aria-label={T.fundProgress(p.used)}
      />
    </div>
  );
}
