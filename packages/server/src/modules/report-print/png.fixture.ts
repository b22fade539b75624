import zlib from 'node:zlib';

/** Real PNG pictures for the print tests (logo, stamp, signatures, key images) and a reader of pdftoppm's pages. */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit RGBA PNG whose pixels `paint` decides. */
export function makePng(
  width: number,
  height: number,
  paint: (x: number, y: number) => [number, number, number, number],
): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    for (let x = 0; x < width; x++) raw.set(paint(x, y), row + 1 + x * 4);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A red ring on transparency, as a hospital stamp looks. */
export const stampPng = (size = 96) =>
  makePng(size, size, (x, y) => {
    const d = Math.hypot(x - size / 2, y - size / 2);
    return d > size * 0.38 && d < size * 0.46 ? [200, 20, 20, 255] : [0, 0, 0, 0];
  });

/** A blue square logo with a white cross. */
export const logoPng = (size = 128) =>
  makePng(size, size, (x, y) =>
    Math.abs(x - size / 2) < size / 10 || Math.abs(y - size / 2) < size / 10
      ? [255, 255, 255, 255]
      : [20, 80, 160, 255],
  );

/** A grey gradient with a bright disc: something like a CT slice. */
export const keyImagePng = (w = 160, h = 120) =>
  makePng(w, h, (x, y) => {
    const v = Math.hypot(x - w / 2, y - h / 2) < h / 3 ? 200 : Math.round((x / w) * 90);
    return [v, v, v, 255];
  });

/** A handwriting-like stroke on transparency. */
export const signaturePng = (w = 180, h = 60) =>
  makePng(w, h, (x, y) => (Math.abs(y - (h / 2 + Math.sin(x / 9) * (h / 4))) < 2.5 ? [10, 10, 60, 255] : [0, 0, 0, 0]));

/** Decodes an 8-bit, non-interlaced RGB or RGBA PNG (what pdftoppm writes) into its pixel rows. */
export function readPng(png: Buffer): { width: number; height: number; channels: number; pixels: Buffer } {
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error('only 8-bit non-interlaced PNGs');
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[data[9]!] ?? 0;
      if (!channels) throw new Error(`colour type ${data[9]} not read here`);
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? pixels[y * stride + i - channels]! : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i]! : 0;
      const c = y > 0 && i >= channels ? pixels[(y - 1) * stride + i - channels]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const predictor = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter] ?? 0;
      pixels[y * stride + i] = (line[i]! + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** How many pixels are not (near) white. */
export function inkedPixels(png: Buffer): number {
  const { channels, pixels } = readPng(png);
  let n = 0;
  for (let i = 0; i < pixels.length; i += channels) {
    const colour = Math.min(...Array.from(pixels.subarray(i, i + Math.min(channels, 3))));
    if (colour < 200) n++;
  }
  return n;
}
