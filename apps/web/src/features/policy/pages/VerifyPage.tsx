// 保单验真 (/piibs/verify/:code): public, no sign-in. The e-policy's QR code points here; anyone can check
// that a policy is real. The server answers only what the paper shows, the holder's name masked; an unknown
// code answers 404 with its message, shown as it is.
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { formatTime, SITE_TITLE } from '@piibs/shared/constants';
import { periodText } from '@piibs/shared/policy';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Result, Spin, Tag, Typography } from 'antd';
import { useParams } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import { policyVerificationQuery } from '../api.ts';
import { VERIFY_TEXTS as T } from '../texts.ts';

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
  return (
    <>
      <Result status="success" title={T.valid} subTitle={T.validHint} style={{ paddingBottom: 16 }} />
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={T.policyNumber}>
          <Typography.Text strong data-testid="verify-policy-number">
            {data.policyNumber}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={T.product}>{data.productName}</Descriptions.Item>
        <Descriptions.Item label={T.holder}>{data.holderName}</Descriptions.Item>
        <Descriptions.Item label={T.period}>{periodText(data.startDate, data.endDate)}</Descriptions.Item>
        <Descriptions.Item label={T.status}>
          <Tag color={data.status === 'EXPIRED' ? 'default' : 'success'}>{data.statusLabel}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={T.issuedAt}>{formatTime(data.issuedAt)}</Descriptions.Item>
      </Descriptions>
    </>
  );
}

export default function VerifyPage() {
  const { code = '' } = useParams();
  return (
    <div style={{ minHeight: '100vh', background: '#f0f2f5', padding: '48px 16px' }}>
      <Card
        style={{ maxWidth: 640, margin: '0 auto' }}
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
