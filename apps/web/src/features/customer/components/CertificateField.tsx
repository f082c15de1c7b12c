import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space, Typography, Upload } from 'antd';

/** 64 hex digits; colons and spaces as people copy them from a certificate viewer are ignored. */
export const FINGERPRINT = /^[0-9a-f]{64}$/;
export const normalizeFingerprint = (text: string) => text.replace(/[:\s]/g, '').toLowerCase();

/** The DER bytes of a certificate file: PEM (-----BEGIN CERTIFICATE-----) or DER as it is. */
export function certificateDer(bytes: Uint8Array): Uint8Array {
  const text = new TextDecoder('latin1').decode(bytes);
  const pem = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(text);
  if (!pem) return bytes;
  const binary = atob(pem[1]!.replace(/\s+/g, ''));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The SHA-256 fingerprint the server compares at CA sign-in (lower-case hex of the DER). */
export async function certificateFingerprint(bytes: Uint8Array): Promise<string> {
  const der = certificateDer(bytes);
  const digest = await crypto.subtle.digest('SHA-256', der as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * CA证书: binds the enterprise's signing certificate. Once bound, CA sign-in accepts that certificate only.
 * The fingerprint is read from the certificate file (.cer/.crt/.pem) in the browser; nothing is uploaded.
 */
export function CertificateField({ readOnly }: { readOnly: boolean }) {
  const form = Form.useFormInstance();
  return (
    <Form.Item
      label="CA证书指纹（SHA-256）"
      extra={
        readOnly ? undefined : '绑定后该企业只能使用此证书登录；选择证书文件自动读取指纹，清空即解除绑定'
      }
    >
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item
          name="caFingerprint"
          noStyle
          normalize={(v: string) => (v ? normalizeFingerprint(v) : v)}
          rules={[
            {
              validator: async (_r, v: string | null | undefined) => {
                if (v && !FINGERPRINT.test(v)) throw new Error('请输入证书的 SHA-256 指纹（64 位十六进制）');
              },
            },
          ]}
        >
          <Input
            aria-label="CA证书指纹"
            readOnly={readOnly}
            allowClear={!readOnly}
            placeholder="未绑定"
            style={{ fontFamily: 'monospace' }}
          />
        </Form.Item>
        {readOnly ? null : (
          <Upload
            accept=".cer,.crt,.pem,.der"
            showUploadList={false}
            beforeUpload={async (file) => {
              const fingerprint = await certificateFingerprint(new Uint8Array(await file.arrayBuffer()));
              form.setFieldValue('caFingerprint', fingerprint);
              await form.validateFields(['caFingerprint']);
              return Upload.LIST_IGNORE;
            }}
          >
            <Button icon={<SafetyCertificateOutlined />}>读取证书文件</Button>
          </Upload>
        )}
      </Space.Compact>
      {readOnly ? null : (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          证书须由系统信任的CA签发，其主题中的统一社会信用代码须与本企业一致。
        </Typography.Text>
      )}
    </Form.Item>
  );
}
