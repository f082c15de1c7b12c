import { CameraOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import type { AuthUser } from '@piibs/shared/auth';
import { Avatar, Button, Card, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useAppApis } from '@/lib/app-apis.tsx';
import { useUserStore } from '@/stores/user.ts';
import { avatarUrl, updateAvatar } from '../api.ts';
import { useConfirmLogout } from '../logout.ts';
import { CHANNEL_LABELS, CENTER_TEXTS as T } from '../texts.ts';

const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** Client-side check before the upload (the server checks the content again): null when acceptable. */
export function avatarProblem(file: { type: string; size: number }): string | null {
  if (!AVATAR_TYPES.includes(file.type)) return T.avatarType;
  if (file.size > AVATAR_MAX_BYTES) return T.avatarSize;
  return null;
}

function Row({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <li
      style={{
        display: 'flex',
        justifyContent: 'space-between',
        padding: '10px 0',
        borderBottom: '1px solid #f0f0f0',
      }}
    >
      <Typography.Text type="secondary">{label}</Typography.Text>
      <span style={{ textAlign: 'right', wordBreak: 'break-all' }}>{value || '—'}</span>
    </li>
  );
}

export function ProfileCard({ user }: { user: AuthUser }) {
  const { message } = useAppApis();
  const isCA = useUserStore((state) => state.isCA);
  const setUser = useUserStore((state) => state.setUser);
  const confirmLogout = useConfirmLogout();
  const [uploading, setUploading] = useState(false);

  const upload = async (file: File) => {
    setUploading(true);
    try {
      const { avatar } = await updateAvatar(file);
      setUser({ ...user, avatar });
      void message.success(T.avatarDone);
    } catch {
      // The HTTP client showed the server's message.
    } finally {
      setUploading(false);
    }
  };

  return (
    <Card title={T.profileCard}>
      <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', marginBottom: 16 }}>
        <Avatar
          size={96}
          src={user.avatar ? avatarUrl(user.avatar) : undefined}
          icon={<UserOutlined />}
          alt={user.nickName}
        />
        <Upload
          accept={AVATAR_TYPES.join(',')}
          showUploadList={false}
          beforeUpload={(file) => {
            const problem = avatarProblem(file);
            if (problem) void message.error(problem);
            else void upload(file);
            return Upload.LIST_IGNORE;
          }}
        >
          <Button type="link" icon={<CameraOutlined />} loading={uploading} style={{ marginTop: 8 }}>
            {T.changeAvatar}
          </Button>
        </Upload>
        <h2 style={{ margin: '4px 0 0', fontSize: 18 }}>{user.nickName}</h2>
      </div>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        <Row label={T.username} value={user.username} />
        <Row label={T.phone} value={user.phone} />
        <Row label={T.email} value={user.email} />
        <Row label={T.dept} value={user.dept?.name} />
        <Row label={T.roles} value={user.roleNames.join('、')} />
        <Row label={T.channel} value={CHANNEL_LABELS[user.channel] ?? user.channel} />
        <Row label={T.signInMethod} value={isCA ? '数字证书' : '账号密码'} />
      </ul>
      <Button danger block icon={<LogoutOutlined />} onClick={confirmLogout} style={{ marginTop: 16 }}>
        {T.logout}
      </Button>
    </Card>
  );
}
