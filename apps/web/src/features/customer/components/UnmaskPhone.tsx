import { EyeOutlined } from '@ant-design/icons';
import { Button, Space, Tooltip } from 'antd';
import { useState } from 'react';
import { errorMessage } from '@/components/crud/resource.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can, useCan } from '@/lib/permission.tsx';
import { unmaskCustomer } from '../api.ts';
import { APPLICANT_TEXTS as T } from '../texts.ts';

/**
 * 查看完整号码: asks the server for a customer's full phone number (POST /api/customers/:id/unmask, which logs
 * the read) and hands it to `onRevealed`. Shown only to holders of customer:unmask. `compact`: an icon with
 * a tooltip, for table cells.
 */
export function UnmaskButton({
  customerId,
  onRevealed,
  compact = false,
}: {
  customerId: number;
  onRevealed: (phone: string) => void;
  compact?: boolean;
}) {
  const { message } = useAppApis();
  const [loading, setLoading] = useState(false);
  const reveal = async () => {
    setLoading(true);
    try {
      onRevealed((await unmaskCustomer(customerId)).phone);
    } catch (err) {
      void message.error(errorMessage(err));
    } finally {
      setLoading(false);
    }
  };
  const button = (
    <Button
      type="link"
      size="small"
      loading={loading}
      icon={<EyeOutlined />}
      aria-label={T.unmask}
      onClick={() => void reveal()}
      style={{ paddingInline: compact ? 0 : undefined }}
    >
      {compact ? null : T.unmask}
    </Button>
  );
  return <Can code="customer:unmask">{compact ? <Tooltip title={T.unmask}>{button}</Tooltip> : button}</Can>;
}

/** A customer's masked phone; holders of customer:unmask can reveal the full number in place. */
export function MaskedPhone({
  customerId,
  phone,
  compact = false,
}: {
  customerId: number;
  phone: string;
  compact?: boolean;
}) {
  const [full, setFull] = useState<string | null>(null);
  const mayUnmask = useCan('customer:unmask');
  if (full !== null) return <span>{full}</span>;
  if (!mayUnmask) return <span>{phone}</span>;
  return (
    // A narrow cell puts the link under the number, never the number over three lines.
    <Space size={4} wrap>
      <span style={{ whiteSpace: 'nowrap' }}>{phone}</span>
      <UnmaskButton customerId={customerId} onRevealed={setFull} compact={compact} />
    </Space>
  );
}
