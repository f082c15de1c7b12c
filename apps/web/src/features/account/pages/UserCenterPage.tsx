import { useQueryClient } from '@tanstack/react-query';
import { Card, Col, Row, Spin, Tabs } from 'antd';
import { useUserStore } from '@/stores/user.ts';
import { sessionsQuery } from '../api.ts';
import { LoginsTable, SessionsTable } from '../components/ActivityTables.tsx';
import { PasswordForm } from '../components/PasswordForm.tsx';
import { ProfileCard } from '../components/ProfileCard.tsx';
import { ProfileForm } from '../components/ProfileForm.tsx';
import { CENTER_TEXTS as T } from '../texts.ts';

/** /piibs/user/center: profile, avatar, password, recent sign-ins and the user's active sessions. */
export default function UserCenterPage() {
  const user = useUserStore((state) => state.user);
  const queryClient = useQueryClient();
  if (!user) return <Spin size="large" style={{ display: 'block', margin: '20vh auto' }} />;

  return (
    <div style={{ padding: 16 }}>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8} xl={6}>
          <ProfileCard user={user} />
        </Col>
        <Col xs={24} md={16} xl={18}>
          <Card>
            <Tabs
              items={[
                { key: 'profile', label: T.profileTab, children: <ProfileForm user={user} /> },
                {
                  key: 'password',
                  label: T.passwordTab,
                  children: (
                    // Changing the password signs the other devices out.
                    <PasswordForm onChanged={() => void queryClient.invalidateQueries(sessionsQuery)} />
                  ),
                },
                { key: 'logins', label: T.loginsTab, children: <LoginsTable />, destroyOnHidden: true },
                { key: 'sessions', label: T.sessionsTab, children: <SessionsTable />, destroyOnHidden: true },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
