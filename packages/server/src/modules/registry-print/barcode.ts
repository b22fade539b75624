import bwipjs from 'bwip-js';

/** Pixels per barcode module in the PNG: an integer, so every bar is whole pixels. */
export const BARCODE_PX_PER_MODULE = 4;

export interface Barcode {
  png: Buffer;
  /** the symbol's width in modules (bars and spaces, no quiet zone) */
  modules: number;
  width: number;
  height: number;
}

/** Width and height of a PNG from its IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * The Code 128 symbol of an accession number as a PNG (bwip-js), without its text: the label
 * prints the number as text beside it, so a reader and pdftotext both find it.
 */
export async function code128(text: string): Promise<Barcode> {
  const png = await bwipjs.toBuffer({
    bcid: 'code128',
    text,
    scale: BARCODE_PX_PER_MODULE,
    height: 10,
    includetext: false,
    backgroundcolor: 'FFFFFF',
  });
  const { width, height } = pngSize(png);
  return { png, modules: width / BARCODE_PX_PER_MODULE, width, height };
}
