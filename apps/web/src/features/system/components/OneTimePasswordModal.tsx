import { CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Typography } from 'antd';
import { useAppApis } from '@/lib/app-apis.tsx';
import { SYSTEM_TEXTS as T } from '../texts.ts';

export interface OneTimePassword {
  username: string;
  password: string;
  /** A new account, or a password reset. */
  kind: 'created' | 'reset';
}

/**
 * Shows a one-time password once. The page keeps it only in this dialog's state and drops it on close; the
 * dialog then leaves the page at once (no closing animation holding the password in the DOM). The server
 * never answers it again.
 */
export function OneTimePasswordModal({
  value,
  onClose,
}: {
  value: OneTimePassword | null;
  onClose: () => void;
}) {
  if (!value) return null;
  return <OneTimePasswordDialog value={value} onClose={onClose} />;
}

function OneTimePasswordDialog({ value, onClose }: { value: OneTimePassword; onClose: () => void }) {
  const { message } = useAppApis();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value.password);
      void message.success(T.oneTimeCopied);
    } catch {
      void message.warning(T.oneTimeCopyFailed);
    }
  };
  return (
    <Modal
      open
      title={T.oneTimeTitle}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={
        <Space>
          <Button icon={<CopyOutlined />} onClick={() => void copy()}>
            {T.oneTimeCopy}
          </Button>
          <Button type="primary" onClick={onClose}>
            {T.oneTimeClose}
          </Button>
        </Space>
      }
    >
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Typography.Text>
          {value.kind === 'created' ? T.oneTimeCreated(value.username) : T.oneTimeReset(value.username)}
        </Typography.Text>
        <div
          style={{
            padding: '12px 16px',
            borderRadius: 8,
            background: 'rgba(0, 0, 0, 0.04)',
            textAlign: 'center',
          }}
        >
          <Typography.Text
            data-testid="one-time-password"
            strong
            style={{
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
              fontSize: 20,
              letterSpacing: 1,
            }}
          >
            {value.password}
          </Typography.Text>
        </div>
        <Alert type="warning" showIcon title={T.oneTimeWarning} />
      </Space>
    </Modal>
  );
}
