// The one place where a backup reads the files a database references and a restore writes them back. Image
// materials go through the storage interface (modules/materials/storage.ts: the local disk under DATA_DIR/materials
// or an S3-compatible bucket, PIIBS_STORAGE), so a backup takes them from wherever they are stored.
// Avatars and the configuration files (secrets, trusted CA roots) are local files under DATA_DIR.
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { materialStorageFor } from '../modules/materials/storage.ts';
import { type StorageSettings, storageSettingsFrom } from '../modules/materials/storage-settings.ts';
import { AVATAR_NAME, avatarDir } from '../modules/users/service.ts';

/** What kind of file an archive entry is: the names under `files/` in a backup. */
export type FileKind = 'material' | 'avatar' | 'config';

export interface FileStore {
  /** The bytes of a file, or null when it is not there. */
  read(kind: FileKind, name: string): Promise<Buffer | null>;
  /** Writes a file that must not exist yet. */
  write(kind: FileKind, name: string, bytes: Buffer): Promise<void>;
  /** The configuration files present (secrets.json, ca/trusted/*), as names relative to DATA_DIR. */
  configFiles(): Promise<string[]>;
  /** Whether any material or avatar is stored (a restore refuses a target that already holds files). */
  holdsFiles(): Promise<boolean>;
}

async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function hasAnyFile(dir: string): Promise<boolean> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.some((e) => e.isFile());
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Configuration names a backup carries: the generated secrets and the trusted CA roots. */
const CONFIG_NAME = /^(secrets\.json|ca\/trusted\/[A-Za-z0-9._-]+)$/;

export function fileStoreFor(
  dataDir: string,
  settings: StorageSettings = storageSettingsFrom(process.env),
): FileStore {
  const storage = materialStorageFor({ dataDir, storage: settings });
  const localPath = (kind: FileKind, name: string) => {
    if (kind === 'avatar') {
      if (!AVATAR_NAME.test(name)) throw new Error(`not an avatar name: ${name}`);
      return path.join(avatarDir(dataDir), name);
    }
    if (!CONFIG_NAME.test(name)) throw new Error(`not a configuration file: ${name}`);
    return path.join(dataDir, ...name.split('/'));
  };
  return {
    async read(kind, name) {
      if (kind !== 'material') return readOrNull(localPath(kind, name));
      const stream = await storage.get(name);
      if (!stream) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async write(kind, name, bytes) {
      if (kind === 'material') return storage.put(name, bytes);
      const file = localPath(kind, name);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, bytes, { flag: 'wx', mode: kind === 'config' ? 0o600 : 0o644 });
    },
    async configFiles() {
      const out: string[] = [];
      if (await stat(path.join(dataDir, 'secrets.json')).catch(() => null)) out.push('secrets.json');
      const trusted = await readdir(path.join(dataDir, 'ca', 'trusted')).catch(() => [] as string[]);
      for (const f of trusted.sort()) if (CONFIG_NAME.test(`ca/trusted/${f}`)) out.push(`ca/trusted/${f}`);
      return out;
    },
    async holdsFiles() {
      for await (const _ of storage.keys()) return true;
      return hasAnyFile(avatarDir(dataDir));
    },
  };
}
