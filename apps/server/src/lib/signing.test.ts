// The insurer's signature on a document, checked by poppler's pdfsig (an independent verifier), and the
// signing key's checks at start.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pdfsig } from '../../test/pdfsig.ts';
import { createRootCa, issueSealCert, toPkcs12 } from '../ca/demo-ca.ts';
import { ConfigError } from '../config-error.ts';
import { createPdf } from './pdf.ts';
import { documentSigner } from './signing.ts';

const DAY = 86_400_000;
const INSURER = '示例财产保险股份有限公司';
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'piibs-signing-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function sealed(signer: ReturnType<typeof documentSigner>) {
  const pdf = createPdf({ Title: '测试' });
  pdf.doc.font('cjk').fontSize(12).text('保险费合计 人民币 ¥12,345.67', 60, 120);
  return pdf.finish('测试文件', { signer, insurerName: INSURER, label: '电子保单专用章', reason: '测试' });
}

/**
 * How many pixels of the seal's red lie in the seal's square (bottom right of page 1), page 1 rendered by
 * poppler's pdftoppm at 72 dpi (1 pixel = 1 point) as a binary PPM.
 */
function sealRedPixels(bytes: Uint8Array): number {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'doc.pdf'), bytes);
  const res = spawnSync(
    'pdftoppm',
    [
      '-r',
      '72',
      '-f',
      '1',
      '-l',
      '1',
      '-x',
      '420',
      '-y',
      '660',
      '-W',
      '120',
      '-H',
      '120',
      '-singlefile',
      'doc.pdf',
      'page',
    ],
    { cwd: dir },
  );
  if (res.status !== 0) throw new Error(`pdftoppm failed: ${res.stderr}`);
  const ppm = readFileSync(path.join(dir, 'page.ppm'));
  // Header: P6\n<w> <h>\n255\n
  let at = 0;
  for (let lines = 0; lines < 3; at++) if (ppm[at] === 0x0a) lines++;
  let red = 0;
  for (let i = at; i + 2 < ppm.length; i += 3)
    if (ppm[i]! > 180 && ppm[i + 1]! < 110 && ppm[i + 2]! < 110) red++;
  return red;
}

describe('documents signed by the insurer', { timeout: 60_000 }, () => {
  it('page 1 carries the red seal at the signature field; an unsealed page has none', async () => {
    const signer = documentSigner(
      { dataDir: tempDir(), signing: { p12Path: null, p12Password: '' } },
      INSURER,
    );
    expect(sealRedPixels(await sealed(signer))).toBeGreaterThan(800);
    const plain = createPdf({ Title: '测试' });
    plain.doc.font('cjk').fontSize(12).text('保险费合计 人民币 ¥12,345.67', 60, 120);
    expect(sealRedPixels(await plain.finish('测试文件'))).toBe(0);
  });

  it('without PIIBS_SIGNING_P12 the demo CA issues the insurer a 电子签章 certificate, and the signature is valid', async () => {
    const dataDir = tempDir();
    const heard: boolean[] = [];
    const signer = documentSigner(
      { dataDir, signing: { p12Path: null, p12Password: '' } },
      INSURER,
      (_f, w) => heard.push(w),
    );
    expect(heard).toEqual([true]);
    expect(signer.demo).toBe(true);
    expect(signer.certificate).toMatchObject({
      subject: `${INSURER} 电子签章`,
      issuer: 'PIIBS Demo Root CA',
    });
    const bytes = await sealed(signer);
    expect(pdfsig(bytes)).toEqual([
      {
        signerName: `${INSURER} 电子签章`,
        validation: 'Signature is Valid.',
        subFilter: 'adbe.pkcs7.detached',
        hash: 'SHA-256',
        wholeDocument: true,
      },
    ]);
  });

  it('one byte changed: the signature no longer verifies', async () => {
    const bytes = Buffer.from(
      await sealed(
        documentSigner({ dataDir: tempDir(), signing: { p12Path: null, p12Password: '' } }, INSURER),
      ),
    );
    const at = bytes.indexOf('/Title');
    bytes[at + 1] = 'X'.charCodeAt(0);
    const [sig] = pdfsig(bytes);
    expect(sig?.validation).not.toBe('Signature is Valid.');
  });

  it('a configured PKCS#12 signs with its own certificate; an expired one or a wrong password is refused at start', async () => {
    const dir = tempDir();
    const ca = createRootCa({ commonName: '测试 CA' });
    const good = path.join(dir, 'good.p12');
    writeFileSync(good, toPkcs12(issueSealCert(ca, '测试财产保险股份有限公司'), [ca], 'secret'));
    const signer = documentSigner(
      { dataDir: dir, signing: { p12Path: good, p12Password: 'secret' } },
      INSURER,
    );
    expect(signer.demo).toBe(false);
    expect(pdfsig(await sealed(signer))[0]).toMatchObject({
      signerName: '测试财产保险股份有限公司 电子签章',
      validation: 'Signature is Valid.',
    });

    const expired = path.join(dir, 'expired.p12');
    writeFileSync(
      expired,
      toPkcs12(
        issueSealCert(ca, '测试财产保险股份有限公司', {
          notBefore: new Date(Date.now() - 400 * DAY),
          notAfter: new Date(Date.now() - DAY),
        }),
        [ca],
        'secret',
      ),
    );
    const open = (p12Path: string, p12Password: string) => () =>
      documentSigner({ dataDir: dir, signing: { p12Path, p12Password } }, INSURER);
    expect(open(expired, 'secret')).toThrow(ConfigError);
    expect(open(expired, 'secret')).toThrow(/expired/);
    expect(open(good, 'wrong')).toThrow(/cannot be opened/);
    expect(open(path.join(dir, 'missing.p12'), 'secret')).toThrow(/cannot read/);
  });
});
