// The SHA-256 of a file the visitor drops on the verification page, computed in the browser: the file is never
// uploaded. node-forge's SHA-256 (the CA sign-in's library) rather than crypto.subtle, which browsers offer only on
// https and localhost while the verification page may be opened over plain http.
import forge from 'node-forge/lib/forge';
import 'node-forge/lib/sha256';

function readBytes(file: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(file);
  });
}

/** Lower-case hex SHA-256 of the file's bytes. */
export async function sha256OfFile(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await readBytes(file));
  const md = forge.md.sha256.create();
  // In slices: a binary string of the whole file at once is needlessly large.
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) md.update(String.fromCharCode(...bytes.subarray(i, i + step)));
  return md.digest().toHex();
}
