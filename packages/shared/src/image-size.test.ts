import { describe, expect, it } from 'vitest';
import { imageDimensions, imagePixelsProblem, MAX_IMAGE_PIXELS } from './image-size.ts';

// (No Buffer or TextEncoder here: the shared package is typed for the browser and the server alike.)
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function b64(s: string): Uint8Array {
  const out: number[] = [];
  let bits = 0;
  let n = 0;
  for (const ch of s.replace(/=+$/, '')) {
    n = (n << 6) | B64.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((n >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}
const hex = (s: string) =>
  Uint8Array.from(s.replace(/\s+/g, '').match(/../g) ?? [], (h) => Number.parseInt(h, 16));
const text = (s: string) => Uint8Array.from(s, (ch) => ch.charCodeAt(0));
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
const u32le = (n: number) => Uint8Array.of(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);
const u24le = (n: number) => Uint8Array.of(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff);
const u32be = (n: number) => Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);

// Real encoder output, 3 pixels wide and 2 high: Chromium's canvas (PNG), jpeg-js (baseline JPEG), and the VP8 /
// VP8L bitstreams of Chromium's WebP encoder (lossy at 0.8, lossless at 1.0).
const PNG_3X2 = b64(
  'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAAEklEQVR4AWL6z8DwH4aZGJAAAAAA//+GpNPhAAAABklEQVQDAHTzBf+1yIrkAAAAAElFTkSuQmCC',
);
const JPEG_3X2 = b64(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wCEABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2MBERISGBUYLxoaL2NCOEJjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY//AABEIAAIAAwMBEQACEQEDEQH/xAGiAAABBQEBAQEBAQAAAAAAAAAAAQIDBAUGBwgJCgsQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+gEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoLEQACAQIEBAMEBwUEBAABAncAAQIDEQQFITEGEkFRB2FxEyIygQgUQpGhscEJIzNS8BVictEKFiQ04SXxFxgZGiYnKCkqNTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqCg4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2dri4+Tl5ufo6ery8/T19vf4+fr/2gAMAwEAAhEDEQA/APQKAP8A/9k=',
);
const VP8_CHUNK = b64('VlA4IDAAAADQAQCdASoDAAIAAUAmJaACdLoB+AADsAD+8ut//NgVzXPv9//S4P0uD9Lg/9KQAAA=');
const VP8L_CHUNK = b64('VlA4TA8AAAAvAkAAAAcQ/Y/+ByKi/wEA');

/** A RIFF/WEBP file around its chunks. */
function riff(...chunks: Uint8Array[]): Uint8Array {
  const body = concat(text('WEBP'), ...chunks);
  return concat(text('RIFF'), u32le(body.length), body);
}

/** The extended format's header chunk: flags, then canvas width − 1 and height − 1 in 24 bits each. */
function vp8x(width: number, height: number): Uint8Array {
  return concat(text('VP8X'), u32le(10), new Uint8Array(4), u24le(width - 1), u24le(height - 1));
}

/** A PNG whose IHDR declares the size (signature and IHDR only: the pixels do not matter here). */
function pngHeader(width: number, height: number): Uint8Array {
  const signature = hex('89504e470d0a1a0a');
  return concat(signature, u32be(13), text('IHDR'), u32be(width), u32be(height), hex('0800000000 00000000'));
}

describe('imageDimensions', () => {
  it('reads PNG, baseline JPEG and the three WebP forms of real encoders', () => {
    const size = { width: 3, height: 2 };
    expect(imageDimensions(PNG_3X2)).toEqual(size);
    expect(imageDimensions(JPEG_3X2)).toEqual(size);
    expect(imageDimensions(riff(VP8_CHUNK))).toEqual(size);
    expect(imageDimensions(riff(VP8L_CHUNK))).toEqual(size);
    expect(imageDimensions(riff(vp8x(3, 2), VP8L_CHUNK))).toEqual(size);
  });

  it('walks JPEG segments, fill bytes and standalone markers to the frame header of any SOFn', () => {
    const app0 = hex('ffe0 0010 4a46494600 0101 00 0001 0001 0000');
    const com = hex('fffe 0006 68656c6c');
    // Progressive (SOF2): height 2000, width 3000; fill bytes before it.
    const sof2 = hex('ffc2 0011 08 07d0 0bb8 03 012200 021100 031100');
    expect(imageDimensions(concat(hex('ffd8'), app0, hex('ffff'), com, sof2))).toEqual({
      width: 3000,
      height: 2000,
    });
    // DHT (C4) is not a frame header; SOF15 is.
    const dht = hex('ffc4 0005 00 0000');
    const sof15 = hex('ffcf 000b 08 0010 0020 01 011100');
    expect(imageDimensions(concat(hex('ffd8'), dht, sof15))).toEqual({ width: 32, height: 16 });
    // The scan begins with no frame header, or the file ends: unknown.
    expect(imageDimensions(concat(hex('ffd8'), app0, hex('ffda 0008 01 0100 003f 00')))).toBeNull();
    expect(imageDimensions(concat(hex('ffd8'), app0))).toBeNull();
  });

  it('the largest sizes each header can declare', () => {
    expect(imageDimensions(pngHeader(60_000, 60_000))).toEqual({ width: 60_000, height: 60_000 });
    expect(imageDimensions(pngHeader(2 ** 31 - 1, 1))).toEqual({ width: 2 ** 31 - 1, height: 1 });
    expect(imageDimensions(riff(vp8x(16_777_216, 16_777_216)))).toEqual({
      width: 16_777_216,
      height: 16_777_216,
    });
    expect(
      imageDimensions(concat(hex('ffd8'), hex('ffc0 0011 08 ffff ffff 03 012200 021100 031100'))),
    ).toEqual({ width: 65_535, height: 65_535 });
  });

  it('answers null for what it cannot read: other formats, cut-short or malformed headers', () => {
    for (const bytes of [
      new Uint8Array(),
      text('%PDF-1.7\n'),
      PNG_3X2.subarray(0, 20),
      concat(PNG_3X2.subarray(0, 12), text('IDAT'), PNG_3X2.subarray(16)),
      JPEG_3X2.subarray(0, 30),
      riff(VP8_CHUNK).subarray(0, 25),
      riff(text('ALPH\u0004\u0000\u0000\u0000xxxxxxxxxxxxxxxx')),
      // A VP8 chunk without its start code.
      riff(concat(VP8_CHUNK.subarray(0, 11), hex('000000'), VP8_CHUNK.subarray(14))),
    ])
      expect(imageDimensions(bytes)).toBeNull();
  });
});

describe('imagePixelsProblem', () => {
  it('refuses a picture over 40 megapixels, naming its size', () => {
    expect(MAX_IMAGE_PIXELS).toBe(40_000_000);
    expect(imagePixelsProblem(pngHeader(60_000, 60_000))).toBe(
      '图片像素过大（60000×60000），不能超过 4000 万像素',
    );
    expect(imagePixelsProblem(riff(vp8x(8001, 5000)))).toBe(
      '图片像素过大（8001×5000），不能超过 4000 万像素',
    );
  });

  it('takes pictures up to the budget, and what has no readable header', () => {
    expect(imagePixelsProblem(pngHeader(8000, 5000))).toBeNull();
    expect(imagePixelsProblem(JPEG_3X2)).toBeNull();
    expect(imagePixelsProblem(text('%PDF-1.7'))).toBeNull();
  });
});
