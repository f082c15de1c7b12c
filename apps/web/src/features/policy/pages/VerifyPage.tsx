// 保单验真 (/piibs/verify/:code): public, no sign-in. The e-policy's QR code points here; anyone can check
// that a policy is real. The server answers what the paper shows, the holder's name masked: the insurer, premium,
// covers and limits, the status today, the endorsements, and every file issued for the policy with its SHA-256
// and signing certificate. A visitor can drop a PDF on the page: it is hashed in the browser (never uploaded)
// and the page says whether it is one of the issued files (与签发文件一致 / 与签发文件不一致). An unknown code
// answers 404 with its message, shown as it is.
import { InboxOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { formatTime, SITE_TITLE } from '@piibs/shared/constants';
import type { IssuedDocumentRow } from '@piibs/shared/documents';
import { formatFen } from '@piibs/shared/money';
import { type PolicyVerification, periodText } from '@piibs/shared/policy';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Result, Spin, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useParams } from 'react-router';
import { DetailTable } from '@/components/crud/DetailTable.tsx';
import { serverError } from '@/components/crud/resource.ts';
import { policyVerificationQuery } from '../api.ts';
import { PolicyCoverageTable, PolicyStatusTag } from '../components/PolicySummary.tsx';
import { sha256OfFile } from '../file-hash.ts';
import { VERIFY_TEXTS as T } from '../texts.ts';

const day = (iso: string) => formatTime(iso, '{y}-{m}-{d}');

const diffText = (fen: number) =>
  fen > 0 ? `加收 ${formatFen(fen)}` : fen < 0 ? `退还 ${formatFen(-fen)}` : '无';

/** The files issued for the policy: which, when, signed by whom, and the SHA-256 to compare against. */
function IssuedDocuments({ rows }: { rows: IssuedDocumentRow[] }) {
  return (
    <DetailTable<IssuedDocumentRow>
      noun="签发文件"
      size="small"
      rowKey="sha256"
      dataSource={rows}
      scroll={{ x: 'max-content' }}
      data-testid="verify-documents"
      columns={[
        {
          key: 'doc',
          title: T.document,
          render: (_, d) => (
            <>
              <div>{d.kindLabel}</div>
              <Typography.Text type="secondary">{d.number}</Typography.Text>
            </>
          ),
        },
        { key: 'at', title: T.documentIssuedAt, render: (_, d) => formatTime(d.issuedAt) },
        {
          key: 'cert',
          title: T.certificate,
          render: (_, d) =>
            d.certificate ? (
              <>
                <div>{d.certificate.subject}</div>
                <Typography.Text type="secondary">
                  {T.certificateIssuer} {d.certificate.issuer} · {T.certificateValidity}{' '}
                  {day(d.certificate.notBefore)} 至 {day(d.certificate.notAfter)}
                </Typography.Text>
              </>
            ) : (
              <Typography.Text type="secondary">{T.notSigned}</Typography.Text>
            ),
        },
        {
          key: 'sha',
          title: T.sha256,
          render: (_, d) => (
            <Typography.Text code copyable style={{ fontSize: 12, wordBreak: 'break-all' }}>
              {d.sha256}
            </Typography.Text>
          ),
        },
      ]}
    />
  );
}

type Check =
  | { state: 'checking' }
  | { state: 'match'; doc: IssuedDocumentRow }
  | { state: 'differs' }
  | { state: 'error' };

/** Drop a PDF: hashed here, compared with the issued files' SHA-256, the answer in plain words. */
function FileCheck({ documents }: { documents: IssuedDocumentRow[] }) {
  const [check, setCheck] = useState<Check | null>(null);
  const onFile = async (file: Blob) => {
    setCheck({ state: 'checking' });
    try {
      const sha = await sha256OfFile(file);
      const doc = documents.find((d) => d.sha256 === sha);
      setCheck(doc ? { state: 'match', doc } : { state: 'differs' });
    } catch {
      setCheck({ state: 'error' });
    }
  };
  return (
    <>
      <Upload.Dragger
        accept=".pdf,application/pdf"
        multiple={false}
        showUploadList={false}
        beforeUpload={(file) => {
          void onFile(file);
          return Upload.LIST_IGNORE;
        }}
        data-testid="verify-file-drop"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{T.checkDrop}</p>
        <p className="ant-upload-hint">{T.checkHint}</p>
      </Upload.Dragger>
      <div role="status" aria-live="polite" style={{ marginTop: 12 }}>
        {check?.state === 'checking' ? <Alert type="info" showIcon title={T.checking} /> : null}
        {check?.state === 'match' ? (
          <Alert
            type="success"
            showIcon
            title={T.matches}
            description={T.matchesDetail(
              `${check.doc.kindLabel} ${check.doc.number}（${formatTime(check.doc.issuedAt)}）`,
            )}
          />
        ) : null}
        {check?.state === 'differs' ? (
          <Alert type="error" showIcon title={T.differs} description={T.differsDetail} />
        ) : null}
        {check?.state === 'error' ? <Alert type="warning" showIcon title={T.readFailed} /> : null}
      </div>
    </>
  );
}

function Verified({ data }: { data: PolicyVerification }) {
  const section = { marginTop: 24 } as const;
  return (
    <>
      <Result status="success" title={T.valid} subTitle={T.validHint} style={{ paddingBottom: 16 }} />
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={T.insurer}>{data.insurerName}</Descriptions.Item>
        <Descriptions.Item label={T.policyNumber}>
          <Typography.Text strong data-testid="verify-policy-number">
            {data.policyNumber}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={T.product}>{data.productName}</Descriptions.Item>
        <Descriptions.Item label={T.holder}>{data.holderName}</Descriptions.Item>
        <Descriptions.Item label={T.period}>{periodText(data.startDate, data.endDate)}</Descriptions.Item>
        <Descriptions.Item label={T.premium}>
          <span data-testid="verify-premium">{formatFen(data.premiumFen)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={T.status}>
          <PolicyStatusTag status={data.status} label={data.statusLabel} />
        </Descriptions.Item>
        <Descriptions.Item label={T.issuedAt}>{formatTime(data.issuedAt)}</Descriptions.Item>
      </Descriptions>

      <Typography.Title level={5} style={section}>
        {T.covers}
      </Typography.Title>
      <PolicyCoverageTable coverages={data.coverages} premiumFen={data.premiumFen} />

      <Typography.Title level={5} style={section}>
        {T.endorsements}
      </Typography.Title>
      {data.endorsements.length ? (
        <DetailTable
          noun="批单"
          size="small"
          rowKey="number"
          dataSource={data.endorsements}
          data-testid="verify-endorsements"
          columns={[
            { key: 'n', title: T.endorsementNumber, dataIndex: 'number' },
            { key: 'e', title: T.effectiveDate, dataIndex: 'effectiveDate' },
            { key: 'd', title: T.premiumDiff, align: 'right', render: (_, e) => diffText(e.premiumDiffFen) },
            { key: 'i', title: T.documentIssuedAt, render: (_, e) => formatTime(e.issuedAt) },
          ]}
        />
      ) : (
        <Typography.Text type="secondary">{T.noEndorsements}</Typography.Text>
      )}

      <Typography.Title level={5} style={section}>
        {T.documents}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{T.documentsHint}</Typography.Paragraph>
      <IssuedDocuments rows={data.documents} />

      <Typography.Title level={5} style={section}>
        {T.check}
      </Typography.Title>
      <FileCheck documents={data.documents} />
    </>
  );
}

function VerifyBody({ code }: { code: string }) {
  const query = useQuery({ ...policyVerificationQuery(code), enabled: code !== '' });

  if (code !== '' && query.isPending) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  const data = query.data;
  if (!data) {
    const error = serverError(query.error);
    // 404: the server's own words (保单验真失败：验证码不存在); 429 and the like: its message too.
    if (!code || error?.status === 404) {
      return <Result status="error" title={error?.message ?? T.failed} subTitle={T.failedHint} />;
    }
    return (
      <Result
        status="warning"
        title={error?.message ?? T.loadFailed}
        extra={
          <Button onClick={() => void query.refetch()} loading={query.isFetching}>
            {T.retry}
          </Button>
        }
      />
    );
  }
  return <Verified data={data} />;
}

export default function VerifyPage() {
  const { code = '' } = useParams();
  return (
    <div style={{ minHeight: '100vh', background: '#f0f2f5', padding: '48px 16px' }}>
      <Card
        style={{ maxWidth: 880, margin: '0 auto' }}
        title={
          <span>
            <SafetyCertificateOutlined style={{ color: '#1677ff', marginRight: 8 }} />
            {T.title}
          </span>
        }
        extra={<Typography.Text type="secondary">{SITE_TITLE}</Typography.Text>}
      >
        <VerifyBody code={code.trim()} />
      </Card>
    </div>
  );
}
