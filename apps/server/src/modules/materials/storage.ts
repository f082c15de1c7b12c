// Where the bytes of image materials live. Keys are made by the server (yyyy/mm/<uuid>.<ext>), never from
// a client's file name. The filesystem keeps them under DATA_DIR/materials; an object store (S3 and the
// like) plugs in by implementing MaterialStorage and returning it from materialStorageFor.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { formatTime } from '@piibs/shared/constants';

export interface MaterialStorage {
  /** Stores the bytes under a new key (refuses to overwrite). */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The stored bytes as a stream, or null when the key holds nothing. */
  get(key: string): Promise<Readable | null>;
  /** Removes the bytes; a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** The form of every key the server makes: yyyy/mm/<uuid>.<ext>. */
export const STORAGE_KEY =
  /^\d{4}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|webp|pdf)$/;

/** A new key for a file of this extension, dated in Asia/Shanghai. */
export function newStorageKey(ext: string, now = new Date()): string {
  return `${formatTime(now, '{y}/{m}')}/${randomUUID()}.${ext}`;
}

function checkKey(key: string): void {
  if (!STORAGE_KEY.test(key)) throw new Error(`invalid storage key: ${key}`);
}

/** Files under a root directory; keys map to relative paths (checked, so no key can leave the root). */
export class FsMaterialStorage implements MaterialStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
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
      try {
        await stat(file);
        throw new Error(`storage key already used: ${key}`);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Readable | null> {
    const file = this.file(key);
    try {
      await stat(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return createReadStream(file);
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.file(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/** The directory the filesystem storage uses. */
export const materialsDir = (dataDir: string) => path.join(dataDir, 'materials');

/** The storage configured for this server (the filesystem under DATA_DIR for now). */
export function materialStorageFor(config: { dataDir: string }): MaterialStorage {
  return new FsMaterialStorage(materialsDir(config.dataDir));
}
