import { UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Upload, type UploadFile } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { HOME_PATH } from '@/lib/paths.ts';
import { errorText } from '@/lib/request-inline.ts';
import { useUserStore } from '@/stores/user.ts';
import { fetchCaChallenge } from '../api.ts';
import { AuthLayout, authStyles as styles } from '../components/AuthLayout.tsx';
import { safeRedirect } from '../safe-redirect.ts';
import { AUTH_TEXTS as T } from '../texts.ts';

type Values = { password: string };

const loadPkcs12 = () => import('../pkcs12.ts');
const CA_FAILED = '证书登录失败，请重试';
const ACCEPT = '.p12,.pfx,application/x-pkcs12';

/**
 * /piibs/CAlogin: the certificate file is opened in the browser, the server's challenge is signed with its
 * private key, and only the certificate chain and the signature are sent. The key never leaves the browser.
 */
export default function CaSignInPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loginCA = useUserStore((state) => state.loginCA);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Fetch the PKCS#12 code while the user picks the file.
  useEffect(() => {
    void loadPkcs12().catch(() => {});
  }, []);

  const onFinish = async ({ password }: Values) => {
    if (!file) {
      setFileError(T.caFileRequired);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const [{ unlockPkcs12 }, bytes] = await Promise.all([loadPkcs12(), file.arrayBuffer()]);
      const certificate = unlockPkcs12(bytes, password);
      const { challenge } = await fetchCaChallenge();
      await loginCA({
        certificate: certificate.certificatePem,
        challenge,
        signature: certificate.sign(challenge),
      });
      navigate(safeRedirect(params.get('redirect')) ?? HOME_PATH, { replace: true });
    } catch (err) {
      const own = err instanceof Error && err.name === 'CertificateError' ? err.message : null;
      setError(own ?? errorText(err) ?? CA_FAILED);
    } finally {
      setBusy(false);
    }
  };

  const fileList: UploadFile[] = file ? [{ uid: 'certificate', name: file.name, status: 'done' }] : [];

  return (
    <AuthLayout title={T.caTitle} subtitle={T.caSubtitle}>
      <Form<Values> name="ca-login" size="large" layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item
          label={T.caFile}
          required
          validateStatus={fileError ? 'error' : undefined}
          help={fileError ?? undefined}
        >
          <Upload
            accept={ACCEPT}
            maxCount={1}
            fileList={fileList}
            beforeUpload={(picked) => {
              if (!/\.(p12|pfx)$/i.test(picked.name)) {
                setFileError(T.caFileType);
                return Upload.LIST_IGNORE;
              }
              setFile(picked);
              setFileError(null);
              setError(null);
              // Read in the browser only: never upload the file.
              return false;
            }}
            onRemove={() => setFile(null)}
          >
            <Button icon={<UploadOutlined />}>{T.caPick}</Button>
          </Upload>
        </Form.Item>
        <Form.Item
          name="password"
          label={T.caPassword}
          rules={[{ required: true, message: T.caPasswordRequired }]}
        >
          <Input.Password autoComplete="off" />
        </Form.Item>
        {error ? (
          <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} />
        ) : null}
        <Button type="primary" htmlType="submit" block loading={busy}>
          {busy ? T.caSigning : T.caSubmit}
        </Button>
        <p className={styles.subtitle} style={{ marginTop: 12 }}>
          {T.caPrivacy}
        </p>
        <div className={styles.links}>
          <Link to="/piibs/login">{T.passwordLink}</Link>
        </div>
      </Form>
    </AuthLayout>
  );
}
