// Whether a PDF can run something when opened: JavaScript (/JS, /JavaScript — also what an /OpenAction that runs
// script names), launching a program (/Launch) or actions on events (/AA). Such a PDF is refused at upload and
// never shown inline.
//
// The file is read as PDF tokens, not searched as text: literal and hex strings, comments and stream data are
// skipped (a link to https://example.com/JavaScript or four random bytes of a photo are not a name), names are
// decoded (/J#61vaScript is /JavaScript). Objects can also sit compressed in object streams (/Type /ObjStm,
// PDF 1.5): those are decoded (FlateDecode, ASCIIHexDecode, ASCII85Decode, in their order) and read the same way.
// An object stream that cannot be decoded (another filter, a predictor, corrupt data, an encrypted file, over
// 64 MB decoded) makes the file uncheckable, which refuses it too.
import { constants, inflateSync } from 'node:zlib';

/** The names that make a PDF active. */
const ACTIVE = new Set(['JS', 'JavaScript', 'Launch', 'AA']);
const DECODED_BUDGET = 64 * 1024 * 1024;

export type PdfVerdict = { ok: true } | { ok: false; active: string } | { ok: false; uncheckable: string };

const isSpace = (c: number) =>
  c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
/** ( ) < > [ ] { } / % */
const isDelimiter = (c: number) =>
  c === 0x28 ||
  c === 0x29 ||
  c === 0x3c ||
  c === 0x3e ||
  c === 0x5b ||
  c === 0x5d ||
  c === 0x7b ||
  c === 0x7d ||
  c === 0x2f ||
  c === 0x25;

class Uncheckable extends Error {}

interface Scan {
  /** The first active name met, if any. */
  active: string | null;
  /** Whether the file names an /Encrypt dictionary (its streams are then encrypted). */
  sawEncrypt: boolean;
  /** The object streams met: their data and the names of their dictionary (the filters among them). */
  objectStreams: { data: Buffer; dictNames: string[] }[];
  decoded: number;
}

const _startsWith = (b: Buffer, at: number, word: string) =>
  b.length >= at + word.length && b.toString('latin1', at, at + word.length) === word;

/** Reads the tokens of `b`: names are checked; stream data skipped (object streams kept for decoding). */
function scan(b: Buffer, s: Scan, topLevel: boolean): void {
  // The names since the last `obj` keyword: the dictionary of a stream that follows.
  let objectNames: string[] = [];
  let i = 0;
  while (i < b.length && !s.active) {
    const c = b[i]!;
    if (c === 0x25) {
      // % comment to the end of the line
      while (i < b.length && b[i] !== 0x0a && b[i] !== 0x0d) i++;
    } else if (c === 0x28) {
      // (literal string), nested parentheses balanced, \-escapes skipped
      let depth = 0;
      for (; i < b.length; i++) {
        const d = b[i]!;
        if (d === 0x5c) i++;
        else if (d === 0x28) depth++;
        else if (d === 0x29 && --depth === 0) break;
      }
      i++;
    } else if (c === 0x3c && b[i + 1] !== 0x3c) {
      // <hex string>
      while (i < b.length && b[i] !== 0x3e) i++;
      i++;
    } else if ((c === 0x3c || c === 0x3e) && b[i + 1] === c) {
      i += 2; // << or >>
    } else if (c === 0x2f) {
      let j = i + 1;
      while (j < b.length && !isSpace(b[j]!) && !isDelimiter(b[j]!)) j++;
      const name = b
        .toString('latin1', i + 1, j)
        .replace(/#([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
      if (ACTIVE.has(name)) s.active = `/${name}`;
      if (name === 'Encrypt') s.sawEncrypt = true;
      objectNames.push(name);
      i = j;
    } else if (isSpace(c) || isDelimiter(c)) {
      i++;
    } else {
      // A keyword or a number.
      let j = i;
      while (j < b.length && !isSpace(b[j]!) && !isDelimiter(b[j]!)) j++;
      const word = b.toString('latin1', i, Math.min(j, i + 10));
      if (word === 'obj') objectNames = [];
      if (word === 'stream') {
        let start = j;
        if (b[start] === 0x0d) start++;
        if (b[start] === 0x0a) start++;
        let end = b.indexOf('endstream', start, 'latin1');
        if (end === -1) end = b.length;
        if (topLevel && objectNames.includes('ObjStm'))
          s.objectStreams.push({ data: b.subarray(start, end), dictNames: objectNames });
        objectNames = [];
        i = end + 'endstream'.length;
        continue;
      }
      i = j;
    }
  }
}

/** An object stream's data through its filters, in their order. */
function decode(data: Buffer, dictNames: string[], s: Scan): Buffer {
  if (dictNames.includes('DecodeParms') || dictNames.includes('DP'))
    throw new Uncheckable('对象流使用了预测器');
  let out = data;
  for (const filter of dictNames) {
    if (filter === 'FlateDecode' || filter === 'Fl') {
      try {
        out = inflateSync(out, {
          finishFlush: constants.Z_SYNC_FLUSH,
          maxOutputLength: Math.max(1, DECODED_BUDGET - s.decoded),
        });
      } catch {
        throw new Uncheckable('对象流无法解压');
      }
    } else if (filter === 'ASCIIHexDecode' || filter === 'AHx') out = asciiHex(out);
    else if (filter === 'ASCII85Decode' || filter === 'A85') out = ascii85(out);
    else if (/Decode$/.test(filter) || ['LZW', 'RL', 'CCF', 'DCT'].includes(filter))
      throw new Uncheckable(`对象流使用了不支持的压缩方式 ${filter}`);
  }
  s.decoded += out.length;
  if (s.decoded >= DECODED_BUDGET) throw new Uncheckable('对象流解压后过大');
  return out;
}

function asciiHex(data: Buffer): Buffer {
  const text = data.toString('latin1');
  const end = text.indexOf('>');
  const digits = (end === -1 ? text : text.slice(0, end)).replace(/[^0-9a-fA-F]/g, '');
  return Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
}

function ascii85(data: Buffer): Buffer {
  const text = data.toString('latin1').replace(/\s+/g, '');
  const body = text.slice(
    text.startsWith('<~') ? 2 : 0,
    text.includes('~>') ? text.indexOf('~>') : undefined,
  );
  const out: number[] = [];
  let group: number[] = [];
  const flush = (count: number) => {
    let n = 0;
    for (let k = 0; k < 5; k++) n = n * 85 + (group[k] ?? 84);
    for (let k = 0; k < count; k++) out.push((n >>> (24 - 8 * k)) & 0xff);
    group = [];
  };
  for (const ch of body) {
    if (ch === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const v = ch.charCodeAt(0) - 33;
    if (v < 0 || v > 84) throw new Uncheckable('对象流的 ASCII85 编码不正确');
    group.push(v);
    if (group.length === 5) flush(4);
  }
  if (group.length) flush(group.length - 1);
  return Buffer.from(out);
}

/** Whether the PDF is free of script, launch and event actions, as far as it can be read. */
export function checkPdf(bytes: Buffer): PdfVerdict {
  const s: Scan = { active: null, sawEncrypt: false, objectStreams: [], decoded: 0 };
  try {
    scan(bytes, s, true);
    if (!s.active && s.objectStreams.length && s.sawEncrypt) return { ok: false, uncheckable: 'PDF 已加密' };
    for (const { data, dictNames } of s.objectStreams)
      if (!s.active) scan(decode(data, dictNames, s), s, false);
  } catch (err) {
    if (err instanceof Uncheckable) return { ok: false, uncheckable: err.message };
    throw err;
  }
  return s.active ? { ok: false, active: s.active } : { ok: true };
}
