// An independent check of a PDF's digital signatures: poppler's `pdfsig` (Debian's poppler-utils, installed by
// `npm test` / .ci/run), not the code that signed. Answers what it reports per signature.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface PdfSignature {
  signerName: string;
  /** "Signature is Valid." or what pdfsig says instead. */
  validation: string;
  subFilter: string;
  hash: string;
  /** Whether the signed ranges cover the whole file. */
  wholeDocument: boolean;
}

export function pdfsig(bytes: Uint8Array): PdfSignature[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfsig-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    writeFileSync(file, bytes);
    const res = spawnSync('pdfsig', [file], { encoding: 'utf8' });
    if (res.error)
      throw new Error(
        `pdfsig is not installed (apt-get install -y poppler-utils; npm test installs it): ${res.error.message}`,
      );
    const out = `${res.stdout}\n${res.stderr}`;
    if (/does not contain any signatures/.test(out)) return [];
    return out
      .split(/^Signature #\d+:$/m)
      .slice(1)
      .map((block) => {
        const field = (label: string) => new RegExp(`- ${label}: (.*)$`, 'm').exec(block)?.[1]?.trim() ?? '';
        return {
          signerName: field('Signer Certificate Common Name'),
          validation: field('Signature Validation'),
          subFilter: field('Signature Type'),
          hash: field('Signing Hash Algorithm'),
          wholeDocument: /Total document signed/.test(block),
        };
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
