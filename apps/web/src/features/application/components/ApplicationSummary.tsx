import type { ApplicationDetail, ApplicationEventRow } from '@piibs/shared/application';
import {
  APPLICATION_STATUS_LABELS,
  type ApplicationEventAction,
  CHANNEL_LABELS,
  POLICYHOLDER_TYPE_LABELS,
} from '@piibs/shared/application-status';
import { formatTime } from '@piibs/shared/constants';
import { amountShortText, formatFen, microPercentText } from '@piibs/shared/money';
import { COVERAGE_LABELS, type CoverageType, PRODUCT_CLASS_LABELS } from '@piibs/shared/rating';
import { Card, Descriptions, Empty, Timeline } from 'antd';
import { ApplicationInsuredPersons } from './ApplicationInsuredPersons.tsx';
import { ApplicationStatusTag } from './ApplicationStatusTag.tsx';
import { CoinsurerTable, CollectionNotice, QuoteBreakdown } from './QuoteBreakdown.tsx';

/** The application's facts: product, parties, period, rating inputs, project. */
export function ApplicationFacts({ app }: { app: ApplicationDetail }) {
  const person = app.policyholderType === 2;
  return (
    <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} bordered>
      <Descriptions.Item label="投保单号">{app.number}</Descriptions.Item>
      <Descriptions.Item label="状态">
        <ApplicationStatusTag status={app.status} />
      </Descriptions.Item>
      <Descriptions.Item label="渠道">{CHANNEL_LABELS[app.channel]}</Descriptions.Item>
      <Descriptions.Item label="险种">
        {app.productName}（{PRODUCT_CLASS_LABELS[app.productClass as keyof typeof PRODUCT_CLASS_LABELS]}）
      </Descriptions.Item>
      <Descriptions.Item label="投保人">
        {app.applicantName}（{POLICYHOLDER_TYPE_LABELS[app.policyholderType]}）
      </Descriptions.Item>
      <Descriptions.Item label="统一社会信用代码">{app.applicantUscc}</Descriptions.Item>
      <Descriptions.Item label={person ? '被保险人姓名' : '被保险人名称'}>
        {app.insuredName ?? '—'}
      </Descriptions.Item>
      {person ? (
        <Descriptions.Item label="被保险人身份证号">{app.insuredIdNumber ?? '—'}</Descriptions.Item>
      ) : (
        <Descriptions.Item label="被保险人信用代码">{app.insuredUscc ?? '—'}</Descriptions.Item>
      )}
      <Descriptions.Item label="被保险人地址">{app.insuredAddress ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="联系人">{app.contactName ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="联系电话">{app.contactPhone ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="电子邮箱">{app.contactEmail ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="保险期间">
        {app.startDate && app.endDate ? `${app.startDate} 零时起至 ${app.endDate} 二十四时止` : '—'}
      </Descriptions.Item>
      {app.headcount !== null ? (
        <Descriptions.Item label="参保人数">{app.headcount} 人</Descriptions.Item>
      ) : null}
      {app.perPersonLimitFen !== null ? (
        <Descriptions.Item label="每人伤亡限额">{amountShortText(app.perPersonLimitFen)}</Descriptions.Item>
      ) : null}
      {app.coverages.length ? (
        <Descriptions.Item label="附加责任">
          {app.coverages.map((c) => COVERAGE_LABELS[c as CoverageType] ?? c).join('、')}
        </Descriptions.Item>
      ) : null}
      {app.guaranteeAmountFen !== null ? (
        <Descriptions.Item label="保证金额">{formatFen(app.guaranteeAmountFen)}</Descriptions.Item>
      ) : null}
      {app.projectName ? (
        <>
          <Descriptions.Item label="工程名称">{app.projectName}</Descriptions.Item>
          <Descriptions.Item label="工程地址">{app.projectAddress ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="工程造价">{formatFen(app.projectCostFen)}</Descriptions.Item>
          <Descriptions.Item label="施工单位">{app.contractor ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="高风险工程">{app.highRisk ? '是' : '否'}</Descriptions.Item>
        </>
      ) : null}
      {app.preventionRatio !== null ? (
        <Descriptions.Item label="事故预防费用比例">
          {microPercentText(app.preventionRatio)}%
        </Descriptions.Item>
      ) : null}
      {app.specialTerms ? (
        <Descriptions.Item label="特别约定" span="filled">
          {app.specialTerms}
        </Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

/**
 * The server's quote of an application (the one stored at submit once submitted) and its co-insurers with who
 * collects the premium (the payment page shows it before paying).
 */
export function ApplicationPremium({
  app,
  coinsurers = true,
}: {
  app: ApplicationDetail;
  coinsurers?: boolean;
}) {
  return (
    <>
      {app.quote ? (
        <QuoteBreakdown
          quote={app.quote}
          preventionRatio={app.quote.preventionRatio}
          preventionFeeFen={app.quote.preventionFeeFen}
          tableText={`第 ${app.quote.rateTableVersion} 版（${app.quote.effectiveDate} 生效），报价时间 ${formatTime(app.quote.quotedAt)}`}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="尚未报价：请完善计费信息" />
      )}
      {coinsurers && (app.allowsCoinsurance || app.coinsurers.length) ? (
        <div style={{ marginTop: 16 }}>
          {app.premiumFen !== null ? <CollectionNotice rows={app.coinsurers} /> : null}
          <CoinsurerTable rows={app.coinsurers} />
        </div>
      ) : null}
    </>
  );
}

const EVENT_LABELS: Record<ApplicationEventAction, string> = {
  create: '创建投保单',
  submit: '提交审核',
  approve: '审核通过',
  return: '审核退回',
  request_materials: '要求补充资料',
  decline: '拒保',
  cancel: '撤销',
  pay: '支付成功',
  expire: '支付超时',
  issue: '出具保单',
};

/** The history of an application, oldest first: who moved it, from what to what, and the opinion. */
export function ApplicationTimeline({ events }: { events: ApplicationEventRow[] }) {
  if (!events.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无记录" />;
  return (
    <Timeline
      items={events.map((e) => ({
        key: e.id,
        color:
          e.toStatus === 'DECLINED' || e.toStatus === 'RETURNED'
            ? 'red'
            : e.action === 'request_materials'
              ? 'orange'
              : 'blue',
        content: (
          <>
            <div>
              {formatTime(e.at)} {e.actor ?? '系统'}{' '}
              {EVENT_LABELS[e.action as ApplicationEventAction] ?? e.action} →{' '}
              {APPLICATION_STATUS_LABELS[e.toStatus]}
            </div>
            {e.opinion ? <div style={{ opacity: 0.75 }}>意见：{e.opinion}</div> : null}
          </>
        ),
      }))}
    />
  );
}

/** Facts, premium and (when given) history in cards. */
export function ApplicationCards({
  app,
  events,
}: {
  app: ApplicationDetail;
  events?: ApplicationEventRow[];
}) {
  return (
    <>
      <Card variant="borderless" title="投保信息">
        <ApplicationFacts app={app} />
      </Card>
      <Card variant="borderless" title="保费信息">
        <ApplicationPremium app={app} />
      </Card>
      <ApplicationInsuredPersons
        applicationId={app.id}
        frame={(title, table) => (
          <Card variant="borderless" title={title} data-testid="application-insured-persons">
            {table}
          </Card>
        )}
      />
      {events ? (
        <Card variant="borderless" title="投保单历史">
          <ApplicationTimeline events={events} />
        </Card>
      ) : null}
    </>
  );
}
