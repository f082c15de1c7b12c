// The dimensions of an image, read from its header without decoding it: PNG (IHDR), JPEG (the SOFn frame
// header) and WebP (VP8, VP8L, VP8X). Uploads refuse images over a pixel budget with it, so a small file that
// declares a huge picture (a decompression bomb: 117 KB of PNG for 60000 × 60000 pixels, 14 GB once decoded)
// never reaches a browser or a thumbnailer. Import it as `@piibs/shared/image-size`.

/** The largest picture accepted: 40 megapixels (8000 × 5000; about 160 MB once decoded). */
export const MAX_IMAGE_PIXELS = 40_000_000;

export interface ImageDimensions {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32be = (b: Uint8Array, at: number) => u16be(b, at) * 65_536 + u16be(b, at + 2);
const ascii = (b: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...b.subarray(at, at + length));

function png(b: Uint8Array): ImageDimensions | null {
  // Signature (8), then the first chunk, which must be IHDR: length (4), type (4), width (4), height (4).
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return null;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

/** SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC): the frame header with the picture's size. */
const isSof = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpeg(b: Uint8Array): ImageDimensions | null {
  let at = 2; // after SOI
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    // Markers without a length: TEM, RST0–7, SOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // EOI, or the scan data began with no frame header
    const length = u16be(b, at + 2);
    if (isSof(marker)) {
      if (at + 9 > b.length) return null;
      return { height: u16be(b, at + 5), width: u16be(b, at + 7) };
    }
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}

function webp(b: Uint8Array): ImageDimensions | null {
  // RIFF (4), size (4), WEBP (4), then the first chunk: type (4), size (4), data from byte 20.
  if (b.length < 30) return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') {
    // Frame tag (3), start code 9D 01 2A, then 14-bit width and height (2 bits of scale above each).
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    // Signature 0x2F, then 14 bits of width − 1 and 14 bits of height − 1, least significant first.
    if (b[20] !== 0x2f) return null;
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    // Flags (1), reserved (3), then 24 bits of canvas width − 1 and of height − 1.
    return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  }
  return null;
}

/**
 * The width and height a PNG, JPEG or WebP file declares in its header, or null when the header cannot be read
 * (not one of these, or cut short): then no decoder can draw it either.
 */
export function imageDimensions(bytes: Uint8Array): ImageDimensions | null {
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(bytes, 1, 3) === 'PNG') return png(bytes);
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpeg(bytes);
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP')
    return webp(bytes);
  return null;
}

/**
 * Why a picture over MAX_IMAGE_PIXELS is refused ("图片像素过大（60000×60000），不能超过 4000 万像素", for the
 * field's label to precede), or null when it fits or is not a picture whose header can be read.
 */
export function imagePixelsProblem(bytes: Uint8Array): string | null {
  const size = imageDimensions(bytes);
  if (!size || size.width * size.height <= MAX_IMAGE_PIXELS) return null;
  return `图片像素过大（${size.width}×${size.height}），不能超过 ${MAX_IMAGE_PIXELS / 10_000} 万像素`;
}
