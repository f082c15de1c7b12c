// The one interface of stored files (materials, issued and signed documents …) and the form of their keys; the
// implementations are FsMaterialStorage (storage.ts) and S3FileStorage (s3-storage.ts).
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface FileStorage {
  /** Where the files are, for the operator (a directory, or s3://bucket at an endpoint). */
  readonly where: string;
  /** Stores the bytes under a new key (refuses to overwrite). */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The stored bytes as a stream, or null when the key holds nothing. */
  get(key: string): Promise<Readable | null>;
  /** Whether the key holds a file. */
  exists(key: string): Promise<boolean>;
  /** Removes the bytes; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored key (in no particular order): for the migration to a bucket and for backups. */
  keys(): AsyncIterable<string>;
}

/**
 * The form any key must have: `/`-separated segments of letters, digits, `_`, `-` and `.` that start with a
 * letter or digit (so no `..`, no hidden names, no absolute path), at most 256 characters.
 */
export const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/;

export function checkKey(key: string): void {
  if (key.length > 256 || !SAFE_KEY.test(key) || key.endsWith('.part'))
    throw new Error(`invalid storage key: ${key}`);
}

/** The SHA-256 (hex) of a stream's bytes, read chunk by chunk. */
export async function sha256Of(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}
