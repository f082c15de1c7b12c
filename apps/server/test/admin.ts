// Helpers for the system-administration tests: roles with chosen permission codes, departments, xlsx parsing.

import { eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { departments, menus, roleMenus, roles, userRoles, users } from '../src/db/schema.ts';
import { forgetSessions } from '../src/modules/auth/sessions.ts';
import { bumpMenuVersion } from '../src/modules/menus/service.ts';
import { bearer } from './auth.ts';
import type { TestContext } from './helpers.ts';

/** Creates (or reuses) a role and grants it the menu buttons carrying these permission codes. */
export async function roleWith(
  t: TestContext,
  code: string,
  permissions: string[],
  opts: { level?: number; dataScope?: string } = {},
): Promise<number> {
  const db = t.database.db;
  const [existing] = await db.select({ id: roles.id }).from(roles).where(eq(roles.code, code));
  const id =
    existing?.id ??
    (
      await db
        .insert(roles)
        .values({ code, name: `角色${code}`, level: opts.level ?? 3, dataScope: opts.dataScope ?? 'all' })
        .returning({ id: roles.id })
    )[0]!.id;
  if (permissions.length) {
    const buttons = await db
      .select({ id: menus.id })
      .from(menus)
      .where(inArray(menus.permission, permissions));
    if (buttons.length === 0) throw new Error(`no menu carries ${permissions.join(', ')}`);
    await db
      .insert(roleMenus)
      .values(buttons.map((b) => ({ roleId: id, menuId: b.id })))
      .onConflictDoNothing();
    // As granting through the API does: cached permission checks and menus are of the old version.
    await bumpMenuVersion(db);
  }
  forgetSessions(); // as a write request does (plugins/auth.ts): sessions read before carry the old versions
  return id;
}

export async function addDept(t: TestContext, name: string, parentId: number | null): Promise<number> {
  const [row] = await t.database.db
    .insert(departments)
    .values({ name, parentId })
    .returning({ id: departments.id });
  forgetSessions(); // as a write request does: sessions read before carry the old data-scope version
  return row!.id;
}

export async function setDept(t: TestContext, userId: number, deptId: number | null): Promise<void> {
  await t.database.db.update(users).set({ deptId }).where(eq(users.id, userId));
  forgetSessions(); // as a write request does: the department is read with the session
}

export async function giveRole(t: TestContext, userId: number, roleId: number): Promise<void> {
  await t.database.db.insert(userRoles).values({ userId, roleId }).onConflictDoNothing();
  forgetSessions(); // as a write request does: the roles are read with the session
}

/** The root department made by first-run setup. */
export async function rootDept(t: TestContext): Promise<number> {
  const [row] = await t.database.db.select({ id: departments.id }).from(departments).limit(1);
  return row!.id;
}

/** Reads an .xlsx body back: the first sheet's rows as arrays of cell texts (row 1 = headers). */
export async function readXlsx(body: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0]!;
  const out: string[][] = [];
  sheet.eachRow((row) => {
    const values = (row.values as unknown[]).slice(1);
    out.push(values.map((v) => (v == null ? '' : String(v))));
  });
  return out;
}

/** A multipart/form-data body: the text fields, then (when given) one file part named `file`. */
export function multipart(
  fields: Record<string, string | number>,
  file?: { name: string; type: string; data: Buffer },
) {
  const boundary = '----piibsMaterialBoundary3f9a';
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, payload: Buffer.concat(chunks) };
}

/** A small PDF (the server types files by their first bytes). */
export const PDF = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n%%EOF\n');

/** A caller for inject(): GET/POST with the token, and a material upload (a small PDF unless `file`). */
export function client(t: TestContext, token: string) {
  return {
    get: (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) }),
    post: (url: string, payload?: unknown) =>
      t.app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as object }),
    upload: (
      target: { businessType: string; businessId: number; docType: string },
      file: { name: string; type: string; data: Buffer } = {
        name: `${target.docType}.pdf`,
        type: 'application/pdf',
        data: PDF,
      },
    ) => {
      const body = multipart(target, file);
      return t.app.inject({
        method: 'POST',
        url: '/api/materials',
        headers: { ...bearer(token), 'content-type': body.contentType },
        payload: body.payload,
      });
    },
  };
}

/** `attachment; filename*=UTF-8''<timestamp>-<name>.xlsx` with the name percent-encoded. */
export function expectDownloadName(header: string | string[] | number | undefined, name: string): void {
  const m = /^attachment; filename\*=UTF-8''(\d{13})-(.+)\.xlsx$/.exec(String(header));
  if (!m) throw new Error(`bad content-disposition: ${String(header)}`);
  if (decodeURIComponent(m[2]!) !== name) throw new Error(`file name ${decodeURIComponent(m[2]!)} ≠ ${name}`);
  if (Math.abs(Number(m[1]) - Date.now()) > 60_000) throw new Error(`timestamp ${m[1]} is not now`);
}
