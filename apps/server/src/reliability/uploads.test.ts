// The two upload routes under attack: the avatar (POST /api/users/updateAvatar, PNG/JPEG/WebP ≤ 2 MB) and image
// materials (POST /api/materials, JPG/PNG/WEBP/PDF ≤ 10 MB). Oversize, content that is not what its name and
// declared type say (typed by magic bytes), path-traversal and control-character file names, malformed forms.
// Files are only ever stored under names the server makes; nothing lands outside its directory.
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { MATERIAL_MESSAGES, MAX_MATERIAL_BYTES } from '@piibs/shared/material';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, tokenFor } from '../../test/auth.ts';
import { createWorld, type World } from '../../test/business.ts';
import { materials, products } from '../db/schema.ts';
import { materialsDir, STORAGE_KEY } from '../modules/materials/storage.ts';
import { approvedCustomer } from '../modules/payments/test-fixtures.ts';
import { AVATAR_MAX_BYTES, AVATAR_NAME, avatarDir } from '../modules/users/service.ts';
import { envelopeProblem } from './openapi.ts';
import { multipart, PNG } from './world.ts';

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF jpeg body')]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n');
/** Not images: an ELF executable, an HTML page with script, an SVG with script, a ZIP, a Windows executable. */
const IMPOSTORS: [string, Buffer][] = [
  ['ELF', Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)])],
  ['HTML', Buffer.from('<!doctype html><script>alert(document.cookie)</script>')],
  ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
  ['ZIP', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(40)])],
  ['EXE', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62)])],
  ['PNG signature cut short', PNG.subarray(0, 5)],
];
/** File names trying to leave the upload directory or smuggle control characters. */
const EVIL_NAMES = [
  '../../x.png',
  '..\\..\\x.png',
  'x\u0000.png',
  '/etc/passwd',
  '../../../../../../tmp/piibs-evil.png',
  'C:\\Windows\\System32\\x.png',
  '..%2F..%2Fx.png',
  'x.png\r\nX-Injected: 1',
  `${'a'.repeat(500)}.png`,
];

let w: World;
let ent: string;
let applicationId: number;

beforeAll(async () => {
  w = await createWorld();
  ent = await tokenFor(w.t, 'ent');
  const customerId = await approvedCustomer(w, w.ent, { uscc: w.entUscc });
  const [p] = await w.t.database.db.select().from(products).where(eq(products.code, 'AZX_GM_2025'));
  const res = await w.ent.post('/api/applications', { productId: p!.id, customerId });
  if (res.statusCode !== 200) throw new Error(res.body);
  applicationId = res.json().id;
}, 60_000);
afterAll(async () => {
  await w?.t.close();
  if (w) rmSync(w.t.config.dataDir, { recursive: true, force: true });
});

/** Every file under a directory, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) =>
    statSync(path.join(dir, f)).isFile(),
  );
}

const post = (url: string, body: ReturnType<typeof multipart>, token = ent) =>
  w.t.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  });

const avatar = (name: string, type: string, data: Buffer) =>
  post('/api/users/updateAvatar', multipart({}, [{ field: 'avatar', name, type, data }]));

const material = (name: string, type: string, data: Buffer, fields: Record<string, string | number> = {}) =>
  post(
    '/api/materials',
    multipart({ businessType: 'application', businessId: applicationId, docType: 'OTHER', ...fields }, [
      { field: 'file', name, type, data },
    ]),
  );

function expectRefused(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(envelopeProblem(res, { binary: false })).toBeNull();
}

describe('avatar upload', () => {
  it('refuses a file over 2 MB with a Chinese message and stores nothing', async () => {
    const before = filesUnder(avatarDir(w.t.config.dataDir));
    for (const size of [AVATAR_MAX_BYTES + 1, 3 * 1024 * 1024]) {
      const res = await avatar('big.png', 'image/png', Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]));
      expect([400, 413]).toContain(res.statusCode);
      expect(res.json().message).toBe('头像文件不能超过 2MB');
    }
    expect(filesUnder(avatarDir(w.t.config.dataDir))).toEqual(before);
  });

  it('answers 413 for an avatar over 2 MB, as the materials upload does', async () => {
    const res = await avatar('big.png', 'image/png', Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES)]));
    expect(res.statusCode).toBe(413);
  });

  it('types the file by its magic bytes: impostors named .png and sent as image/png are refused (400)', async () => {
    for (const [kind, data] of IMPOSTORS) {
      const res = await avatar('photo.png', 'image/png', data);
      expectRefused(res, 400);
      expect(res.json().message, kind).toBe('头像只支持 PNG、JPEG 或 WebP 图片');
    }
    // A real JPEG under a PNG name is fine: the name and the declared type do not matter, the content does.
    const res = await avatar('photo.png', 'application/octet-stream', JPEG);
    expect(res.statusCode).toBe(200);
    expect(res.json().avatar).toMatch(/\.jpg$/);
  });

  it('path-traversal and control-character names: stored under a server-generated name, nothing outside', async () => {
    const dir = avatarDir(w.t.config.dataDir);
    for (const name of EVIL_NAMES) {
      const res = await avatar(name, 'image/png', PNG);
      // Refusing the name outright would do as well; storing it under the given name would not.
      if (res.statusCode !== 200) {
        expectRefused(res, 400);
        continue;
      }
      const stored = res.json().avatar as string;
      expect(stored, name).toMatch(AVATAR_NAME);
      expect(filesUnder(dir)).toEqual([stored]);
    }
    expect(existsSync('/tmp/piibs-evil.png')).toBe(false);
    const everything = filesUnder(w.t.config.dataDir);
    expect(everything.filter((f) => /x\.png|passwd|evil|Injected/.test(f))).toEqual([]);
  });

  it('malformed forms are 400, never 5xx', async () => {
    const boundary = '----piibsReliabilityBoundary7d1e';
    const bodies: [string, string | Buffer][] = [
      ['no parts', `--${boundary}--\r\n`],
      [
        'truncated',
        `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\n\u0089PNG`,
      ],
      [
        'no file part',
        `--${boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n--${boundary}--\r\n`,
      ],
      ['garbage', Buffer.from([0, 1, 2, 3, 255, 254])],
    ];
    for (const [kind, payload] of bodies) {
      const res = await w.t.app.inject({
        method: 'POST',
        url: '/api/users/updateAvatar',
        headers: { ...bearer(ent), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(res.statusCode, `${kind}: ${res.body}`).toBeLessThan(500);
      expect(res.statusCode, kind).toBeGreaterThanOrEqual(400);
      expect(envelopeProblem(res, { binary: false }), kind).toBeNull();
    }
  });
});

describe('materials upload', () => {
  const stored = async () => (await w.t.database.db.select().from(materials)).length;

  it('refuses a file over 10 MB with 413 and stores nothing', async () => {
    const files = filesUnder(materialsDir(w.t.config.dataDir));
    const rows = await stored();
    const res = await material(
      'big.pdf',
      'application/pdf',
      Buffer.concat([PDF, Buffer.alloc(MAX_MATERIAL_BYTES)]),
    );
    expectRefused(res, 413);
    expect(res.json().message).toBe(MATERIAL_MESSAGES.tooLarge);
    expect(await stored()).toBe(rows);
    expect(filesUnder(materialsDir(w.t.config.dataDir))).toEqual(files);
  });

  it('accepts a file of exactly 10 MB', async () => {
    const res = await material(
      'fits.pdf',
      'application/pdf',
      Buffer.concat([PDF, Buffer.alloc(MAX_MATERIAL_BYTES - PDF.length)]),
    );
    expect(res.statusCode, res.body).toBe(200);
  });

  it('types the file by its magic bytes: impostors under image names and types are refused (400)', async () => {
    const rows = await stored();
    for (const [kind, data] of IMPOSTORS) {
      for (const [name, type] of [
        ['scan.jpg', 'image/jpeg'],
        ['scan.pdf', 'application/pdf'],
      ]) {
        const res = await material(name!, type!, data);
        expectRefused(res, 400);
        expect(res.json().message, kind).toBe(MATERIAL_MESSAGES.type);
      }
    }
    expect(await stored()).toBe(rows);
    // Real content under a misleading name and type is stored as what it is.
    const res = await material('scan.exe', 'application/x-msdownload', PDF);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().mime).toBe('application/pdf');
  });

  it('path-traversal and control-character names: stored under a server-generated key, the name kept for display only', async () => {
    const dir = materialsDir(w.t.config.dataDir);
    for (const name of EVIL_NAMES) {
      const res = await material(name, 'image/png', PNG);
      if (res.statusCode !== 200) {
        expectRefused(res, 400);
        continue;
      }
      const [row] = await w.t.database.db.select().from(materials).where(eq(materials.id, res.json().id));
      expect(row!.storageKey, name).toMatch(STORAGE_KEY);
      // The display name has no directory part and no control characters.
      expect(/[\\/]/.test(row!.originalName), row!.originalName).toBe(false);
      expect(
        [...row!.originalName].some((ch) => ch.charCodeAt(0) < 0x20),
        row!.originalName,
      ).toBe(false);
      expect(row!.originalName.length).toBeLessThanOrEqual(200);
      expect(existsSync(path.join(dir, ...row!.storageKey.split('/')))).toBe(true);
    }
    // Every file under the materials directory has a server-made key; nothing was written anywhere else.
    const keys = filesUnder(dir).map((f) => f.split(path.sep).join('/'));
    expect(keys.filter((k) => !STORAGE_KEY.test(k))).toEqual([]);
    expect(existsSync('/tmp/piibs-evil.png')).toBe(false);
    expect(filesUnder(w.t.config.dataDir).filter((f) => /x\.png|passwd|evil|Injected/.test(f))).toEqual([]);
  });

  it('NUL and junk in the text fields, two files, malformed forms: 400, never 5xx', async () => {
    const attempts = [
      material('a.png', 'image/png', PNG, { docType: 'OTHER\u0000' }),
      material('a.png', 'image/png', PNG, { businessType: 'application\u0000' }),
      material('a.png', 'image/png', PNG, { businessId: '1\u0000' }),
      material('a.png', 'image/png', PNG, { docType: "' OR 1=1 --" }),
      material('a.png', 'image/png', PNG, { businessId: '99999999999999999999' }),
      post(
        '/api/materials',
        multipart({ businessType: 'application', businessId: applicationId, docType: 'OTHER' }, [
          { field: 'file', name: 'a.png', type: 'image/png', data: PNG },
          { field: 'file', name: 'b.png', type: 'image/png', data: PNG },
        ]),
      ),
      w.t.app.inject({
        method: 'POST',
        url: '/api/materials',
        headers: { ...bearer(ent), 'content-type': 'multipart/form-data; boundary=x' },
        payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\u0089PN',
      }),
    ];
    for (const [i, p] of attempts.entries()) {
      const res = await p;
      expect(res.statusCode, `attempt ${i}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `attempt ${i}: ${res.body}`).toBeLessThan(500);
      expect(envelopeProblem(res, { binary: false }), `attempt ${i}`).toBeNull();
    }
  });
});
