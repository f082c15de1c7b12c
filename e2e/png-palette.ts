// Shrinks a screenshot that came out large (the login page's dithered gradient is ~500 KB as Chromium
// encodes it) to an indexed PNG: a median-cut palette, no dithering. Node built-ins only; handles what
// Playwright writes (8-bit RGB or RGBA, not interlaced).
import zlib from 'node:zlib';

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

type Image = { width: number; height: number; rgb: Buffer };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function decode(png: Buffer): Image {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let offset = 8; offset < png.length; ) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colourType, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      if (depth !== 8 || (colourType !== 2 && colourType !== 6) || interlace !== 0) {
        throw new Error('only 8-bit RGB(A), non-interlaced PNGs');
      }
      channels = colourType === 2 ? 3 : 4;
    } else if (type === 'IDAT') {
      idat.push(data);
    }
    offset += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = pixels.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : undefined;
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? row[i - channels]! : 0;
      const b = prev ? prev[i]! : 0;
      const c = prev && i >= channels ? prev[i - channels]! : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter] ?? 0;
      row[i] = (src[i]! + predictor) & 255;
    }
  }
  // Screenshots are opaque: drop the alpha channel.
  const rgb = Buffer.alloc(width * height * 3);
  for (let p = 0; p < width * height; p++) pixels.copy(rgb, p * 3, p * channels, p * channels + 3);
  return { width, height, rgb };
}

const channel = (colour: number, k: number) => (colour >> (16 - 8 * k)) & 255;

/** Median cut over the image's distinct colours, weighted by how often each occurs. */
function palette(
  counts: Map<number, number>,
  size: number,
): { colours: number[][]; index: Map<number, number> } {
  const boxes: number[][] = [[...counts.keys()]];
  while (boxes.length < size) {
    let pick = -1;
    let axis = 0;
    let best = -1;
    boxes.forEach((box, i) => {
      if (box.length < 2) return;
      let weight = 0;
      for (const colour of box) weight += counts.get(colour)!;
      for (let k = 0; k < 3; k++) {
        let lo = 255;
        let hi = 0;
        for (const colour of box) {
          const v = channel(colour, k);
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
        const score = (hi - lo) * Math.sqrt(weight);
        if (score > best) [best, pick, axis] = [score, i, k];
      }
    });
    if (pick < 0) break;
    const box = boxes[pick]!.sort((x, y) => channel(x, axis) - channel(y, axis));
    let total = 0;
    for (const colour of box) total += counts.get(colour)!;
    let cut = 0;
    for (let seen = 0; cut < box.length - 2; cut++) {
      seen += counts.get(box[cut]!)!;
      if (seen >= total / 2) break;
    }
    boxes.splice(pick, 1, box.slice(0, cut + 1), box.slice(cut + 1));
  }
  const index = new Map<number, number>();
  const colours = boxes.map((box, i) => {
    const sum = [0, 0, 0];
    let weight = 0;
    for (const colour of box) {
      const n = counts.get(colour)!;
      for (let k = 0; k < 3; k++) sum[k]! += channel(colour, k) * n;
      weight += n;
      index.set(colour, i);
    }
    return sum.map((s) => Math.round(s / weight));
  });
  return { colours, index };
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The PNG re-encoded with at most `colours` colours (indexed, 8 bits per pixel). */
export function toIndexedPng(png: Buffer, colours = 128): Buffer {
  const { width, height, rgb } = decode(png);
  const counts = new Map<number, number>();
  for (let i = 0; i < rgb.length; i += 3) {
    const colour = (rgb[i]! << 16) | (rgb[i + 1]! << 8) | rgb[i + 2]!;
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  const { colours: table, index } = palette(counts, colours);
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    // Filter type 0 (none) per row: the indices compress best as they are.
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[y * (width + 1) + 1 + x] = index.get((rgb[i]! << 16) | (rgb[i + 1]! << 8) | rgb[i + 2]!)!;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 3; // indexed colour
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', Buffer.from(table.flat())),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
