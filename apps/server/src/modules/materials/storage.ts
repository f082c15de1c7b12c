// Where stored files live: the bytes of image materials today, and any other file the server keeps by key
// (signed documents and the like). Keys are made by the server (materials: yyyy/mm/<uuid>.<ext>), never from a
// client's file name. Two implementations of one interface, chosen by PIIBS_STORAGE (storage-settings.ts):
// - `fs` (default): files under DATA_DIR/materials, key segments as directories;
// - `s3`: objects in an S3-compatible bucket (AWS S3, MinIO, Alibaba OSS, Tencent COS) through the AWS SDK,
//   the key as the object's name (s3-storage.ts).
// Reads are streams in both: a download never holds a whole file in memory.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { formatTime } from '@piibs/shared/constants';
import { checkKey, type FileStorage, SAFE_KEY } from './file-storage.ts';
import { S3FileStorage } from './s3-storage.ts';
import type { StorageSettings } from './storage-settings.ts';

/** The storage of image materials (the same interface: materials were its first user). */
export type MaterialStorage = FileStorage;

/** The form of every key the server makes for a material: yyyy/mm/<uuid>.<ext>. */
export const STORAGE_KEY =
  /^\d{4}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|webp|pdf)$/;

/** A new key for a file of this extension, dated in Asia/Shanghai. */
export function newStorageKey(ext: string, now = new Date()): string {
  return `${formatTime(now, '{y}/{m}')}/${randomUUID()}.${ext}`;
}

/** Files under a root directory; keys map to relative paths (checked, so no key can leave the root). */
export class FsMaterialStorage implements FileStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  get where(): string {
    return this.root;
  }

  private file(key: string): string {
    checkKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Written under a temporary name and renamed, so a reader never sees half a file.
    const tmp = `${file}.${process.pid}.part`;
    try {
      await writeFile(tmp, bytes, { flag: 'wx', mode: 0o600 });
      if (await this.exists(key)) throw new Error(`storage key already used: ${key}`);
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Readable | null> {
    if (!(await this.exists(key))) return null;
    return createReadStream(this.file(key));
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.file(key))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.file(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  async *keys(): AsyncIterable<string> {
    let entries: string[];
    try {
      entries = await readdir(this.root, { recursive: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const entry of entries) {
      const key = entry.split(path.sep).join('/');
      // Directories, a write in progress (*.part) and anything not made by the server are left out.
      if (!SAFE_KEY.test(key) || key.endsWith('.part')) continue;
      if ((await stat(path.join(this.root, entry))).isFile()) yield key;
    }
  }
}

/** The directory the filesystem storage uses. */
export const materialsDir = (dataDir: string) => path.join(dataDir, 'materials');

/** The storage configured for this server: PIIBS_STORAGE=s3 → the bucket, otherwise DATA_DIR/materials. */
export function materialStorageFor(config: { dataDir: string; storage?: StorageSettings }): FileStorage {
  if (config.storage?.kind === 's3') return new S3FileStorage(config.storage);
  return new FsMaterialStorage(materialsDir(config.dataDir));
}
