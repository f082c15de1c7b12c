// The two upload routes under attack: the avatar (POST /api/users/updateAvatar, PNG/JPEG/WebP ≤ 2 MB) and image
// materials (POST /api/materials, JPG/PNG/WEBP/PDF ≤ 10 MB). Oversize, content that is not what its name and
// declared type say (typed by magic bytes), path-traversal and control-character file names, malformed forms.
// Files are only ever stored under names the server makes; nothing lands outside its directory. Pictures that
// declare more than 40 megapixels (decompression bombs) and PDFs that run something when opened are refused; a
// file is shown in the browser (inline) only when it is a picture or a PDF that passes that check.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { MATERIAL_MESSAGES, MAX_MATERIAL_BYTES } from '@piibs/shared/material';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, tokenFor } from '../../test/auth.ts';
import { createWorld, type World } from '../../test/business.ts';
import { materials, products } from '../db/schema.ts';
import {
  materialStorageFor,
  materialsDir,
  newStorageKey,
  STORAGE_KEY,
} from '../modules/materials/storage.ts';
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

/** A PNG chunk: length, type, data, CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/**
 * A grey PNG of width × height whose first rows are there (a decompression bomb sends them all, compressed a
 * thousandfold: 60000 × 60000 is 3.6 GB once decoded; a decoder reads the size from IHDR before anything else).
 */
function greyPng(width: number, height: number, rows = Math.min(height, 16)): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([
    PNG.subarray(0, 8),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(rows * (width + 1)), { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
/** A WebP (extended format) header declaring the canvas. */
function webpCanvas(width: number, height: number): Buffer {
  const chunk = Buffer.alloc(18);
  chunk.write('VP8X', 0, 'latin1');
  chunk.writeUInt32LE(10, 4);
  chunk.writeUIntLE(width - 1, 12, 3);
  chunk.writeUIntLE(height - 1, 15, 3);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(4 + chunk.length, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, chunk]);
}
/** A JPEG whose baseline frame header declares the size. */
function jpegFrame(width: number, height: number): Buffer {
  const sof = Buffer.from('ffc00011080000000003012200021101031101', 'hex');
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([
    Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
    sof,
    Buffer.from('ffd9', 'hex'),
  ]);
}

/** A one-page PDF whose catalogue holds `catalog` and whose objects 3 and on are `objects`. */
function pdf(catalog: string, ...objects: (string | Buffer)[]): Buffer {
  return Buffer.concat([
    Buffer.from(
      `%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R ${catalog} >>\nendobj\n` +
        '2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n',
      'latin1',
    ),
    ...objects.map((o, i) =>
      Buffer.concat([Buffer.from(`${i + 3} 0 obj\n`), Buffer.from(o), Buffer.from('\nendobj\n')]),
    ),
    Buffer.from('trailer\n<< /Root 1 0 R >>\n%%EOF\n'),
  ]);
}
/** An object stream (PDF 1.5) holding `inner`, through the given filters (applied by the writer in reverse). */
function objectStream(inner: string, filters: ('FlateDecode' | 'ASCIIHexDecode')[], extra = ''): Buffer {
  let data = Buffer.from(`9 0 ${inner}`, 'latin1');
  for (const f of [...filters].reverse())
    data = f === 'FlateDecode' ? deflateSync(data) : Buffer.from(`${data.toString('hex')}>`);
  const filter = filters.length === 1 ? `/${filters[0]}` : `[${filters.map((f) => `/${f}`).join(' ')}]`;
  return Buffer.concat([
    Buffer.from(
      `<< /Type /ObjStm /N 1 /First 4 /Filter ${filter} /Length ${data.length}${extra} >>\nstream\n`,
    ),
    data,
    Buffer.from('\nendstream'),
  ]);
}
/** PDFs that run something when opened, and what each does. */
const ACTIVE_PDFS: [string, Buffer][] = [
  ['JavaScript on open', pdf('/OpenAction 3 0 R', '<< /S /JavaScript /JS (app.alert\\(1\\)) >>')],
  ['a document-level script', pdf('/Names << /JavaScript 3 0 R >>', '<< /Names [(x) 4 0 R] >>')],
  ['a program launched on open', pdf('/OpenAction << /S /Launch /F (cmd.exe) >>')],
  ['actions on page events', pdf('/AA << /WC 3 0 R >>', '<< /S /GoTo /D [0 /Fit] >>')],
  ['a name written with # escapes', pdf('/OpenAction << /S /J#61vaScript /J#53 (x) >>')],
  [
    'script inside a compressed object stream',
    pdf('', objectStream('<< /S /JavaScript /JS (x) >>', ['FlateDecode'])),
  ],
  [
    'script inside a hex-encoded, compressed object stream',
    pdf('', objectStream('<< /S /Launch /F (x) >>', ['ASCIIHexDecode', 'FlateDecode'])),
  ],
];
/** PDFs that cannot be checked: an object stream through a filter the check does not decode, an encrypted file. */
const UNCHECKABLE_PDFS: [string, Buffer][] = [
  [
    'LZW object stream',
    pdf(
      '',
      Buffer.from('<< /Type /ObjStm /N 1 /First 4 /Filter /LZWDecode /Length 4 >>\nstream\nabcd\nendstream'),
    ),
  ],
  ['encrypted', pdf('/Encrypt 4 0 R', objectStream('<< /S /GoTo >>', ['FlateDecode']))],
];
/** Inert PDFs with names and bytes that only look active: in strings, comments and image data. */
const INERT_PDFS: [string, Buffer][] = [
  ['a link whose address says JavaScript', pdf('/URI (https://example.com/JavaScript /JS /AA)')],
  ['a comment', Buffer.concat([pdf('/OpenAction [2 0 R /Fit]'), Buffer.from('% /JS /Launch\n')])],
  [
    'image data holding the bytes of /JavaScript',
    pdf(
      '',
      Buffer.from(
        '<< /Type /XObject /Subtype /Image /Length 24 >>\nstream\n\u00ff/JavaScript /Launch \u00d8\nendstream',
      ),
    ),
  ],
  ['an object stream of plain objects', pdf('', objectStream('<< /S /GoTo /D [0 /Fit] >>', ['FlateDecode']))],
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

  it('a picture over 40 megapixels (a decompression bomb) is refused with 400 naming the field; nothing stored', async () => {
    const dir = avatarDir(w.t.config.dataDir);
    const before = filesUnder(dir);
    const bomb = greyPng(60_000, 60_000);
    expect(bomb.length).toBeLessThan(AVATAR_MAX_BYTES);
    const res = await avatar('me.png', 'image/png', bomb);
    expectRefused(res, 400);
    expect(res.json()).toEqual({
      status: 400,
      message: '头像：图片像素过大（60000×60000），不能超过 4000 万像素',
      errors: [{ field: 'avatar', message: '图片像素过大（60000×60000），不能超过 4000 万像素' }],
    });
    expect(filesUnder(dir)).toEqual(before);
    // 40 megapixels exactly are taken.
    expect((await avatar('me.png', 'image/png', greyPng(8000, 5000))).statusCode).toBe(200);
  });

  it('is served as a picture, inline, never sniffed', async () => {
    const res = await avatar('me.png', 'image/png', PNG);
    const file = await w.t.app.inject({ method: 'GET', url: `/api/avatar/${res.json().avatar}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-disposition']).toBe('inline');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
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

describe('materials: decompression bombs, active PDFs, how files are served', () => {
  const stored = async () => (await w.t.database.db.select().from(materials)).length;

  it('pictures over 40 megapixels — PNG, WebP, JPEG — are refused with 400 naming the field; nothing stored', async () => {
    const rows = await stored();
    const files = filesUnder(materialsDir(w.t.config.dataDir));
    for (const [name, data, size] of [
      ['bomb.png', greyPng(60_000, 60_000), '60000×60000'],
      ['wide.webp', webpCanvas(8001, 5000), '8001×5000'],
      ['tall.jpg', jpegFrame(65_535, 65_535), '65535×65535'],
    ] as const) {
      const res = await material(name, 'image/png', data);
      expectRefused(res, 400);
      expect(res.json().message, name).toBe(`文件：图片像素过大（${size}），不能超过 4000 万像素`);
      expect(res.json().errors, name).toEqual([
        { field: 'file', message: `图片像素过大（${size}），不能超过 4000 万像素` },
      ]);
    }
    expect(await stored()).toBe(rows);
    expect(filesUnder(materialsDir(w.t.config.dataDir))).toEqual(files);
    // Up to the budget is fine.
    for (const data of [greyPng(8000, 5000), webpCanvas(8000, 5000), jpegFrame(5000, 8000)]) {
      const res = await material('big.png', 'image/png', data);
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('PDFs that run script, launch a program or act on events are refused with 400; nothing stored', async () => {
    const rows = await stored();
    for (const [kind, data] of ACTIVE_PDFS) {
      const res = await material('scan.pdf', 'application/pdf', data);
      expectRefused(res, 400);
      expect(res.json().message, kind).toMatch(
        /^文件：PDF 含有(脚本|启动外部程序的动作|自动执行的动作)，不能上传/,
      );
      expect(res.json().errors[0].field, kind).toBe('file');
    }
    for (const [kind, data] of UNCHECKABLE_PDFS) {
      const res = await material('scan.pdf', 'application/pdf', data);
      expectRefused(res, 400);
      expect(res.json().message, kind).toMatch(/^文件：PDF 无法检查（.+），不能上传/);
    }
    expect(await stored()).toBe(rows);
  });

  it('inert PDFs are taken, however much they look like script in strings, comments and image data', async () => {
    for (const [kind, data] of INERT_PDFS) {
      const res = await material('scan.pdf', 'application/pdf', data);
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(200);
    }
  });

  it('inline only for a picture or a checked PDF; an active PDF stored before the check is a download; never sniffed', async () => {
    // A file from before the check: stored directly, as the upload stored it then.
    const active = ACTIVE_PDFS[0]![1];
    const key = newStorageKey('pdf');
    await materialStorageFor(w.t.config).put(key, active);
    const [old] = await w.t.database.db
      .insert(materials)
      .values({
        businessType: 'application',
        businessId: applicationId,
        docType: 'OTHER',
        originalName: 'old.pdf',
        storageKey: key,
        mime: 'application/pdf',
        sizeBytes: active.length,
        sha256: createHash('sha256').update(active).digest('hex'),
        uploadedBy: w.ids.ent,
      })
      .returning({ id: materials.id });
    const inertPdf = (await material('scan.pdf', 'application/pdf', INERT_PDFS[0]![1])).json().id as number;
    const png = (await material('photo.png', 'image/png', PNG)).json().id as number;
    const get = (id: number) =>
      w.t.app.inject({ method: 'GET', url: `/api/materials/${id}/file`, headers: bearer(ent) });

    const oldRes = await get(old!.id);
    expect(oldRes.statusCode).toBe(200);
    expect(oldRes.headers['content-disposition']).toBe(`attachment; filename="material-${old!.id}.pdf"`);
    expect(oldRes.rawPayload.equals(active)).toBe(true);
    for (const [id, type] of [
      [inertPdf, 'application/pdf'],
      [png, 'image/png'],
    ] as const) {
      const res = await get(id);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['content-disposition']).toBe('inline');
    }
    for (const id of [old!.id, inertPdf, png])
      expect((await get(id)).headers['x-content-type-options']).toBe('nosniff');
  });
});
