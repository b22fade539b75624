/**
 * The WASM codecs published by cornerstonejs (libjpeg-turbo, CharLS, OpenJPEG, OpenJPH), each
 * loaded once, on first use. Their embind objects live in the module's heap and are freed with
 * delete(); the typed arrays they hand out are views into that heap, valid until the next call,
 * so callers copy what they keep.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface FrameInfo {
  width: number;
  height: number;
  bitsPerSample: number;
  componentCount: number;
  isSigned?: boolean;
  isUsingColorTransform?: boolean;
}

interface Deletable {
  delete(): void;
}

export interface WasmDecoder extends Deletable {
  getEncodedBuffer(length: number): Uint8Array;
  decode(): void;
  getDecodedBuffer(): Uint8Array;
  getFrameInfo(): FrameInfo;
  getInterleaveMode?(): number;
}

export interface WasmEncoder extends Deletable {
  getDecodedBuffer(info: FrameInfo): Uint8Array;
  encode(): void;
  getEncodedBuffer(): Uint8Array;
}

export interface JpegTurboEncoder extends WasmEncoder {
  /** 1 (default) writes a progressive JPEG, which no DICOM JPEG syntax is: set 0. */
  setProgressive(progressive: number): void;
  setQuality(quality: number): void;
  setSubSampling(subSampling: number): void;
}
export interface JpegLsEncoder extends WasmEncoder {
  setNearLossless(near: number): void;
  setInterleaveMode(mode: number): void;
}
export interface J2kEncoder extends WasmEncoder {
  setDecompositions(levels: number): void;
}
export interface HtJ2kEncoder extends J2kEncoder {
  setProgressionOrder(order: number): void;
}

interface Codec<D, E> {
  Decoder: new () => D;
  Encoder: new () => E;
}

type Factory = (options: object) => Promise<Record<string, unknown>>;

function lazy<D, E>(path: string, decoder: string, encoder: string): () => Promise<Codec<D, E>> {
  let loading: Promise<Codec<D, E>> | undefined;
  return () => {
    loading ??= (async () => {
      const factory = require(path) as Factory;
      // The codecs print their progress (OpenJPEG's "[INFO] …") on stdout: silenced. Each module
      // takes its own options object, which emscripten makes its Module.
      const m = await factory({ print: () => undefined, printErr: () => undefined });
      return { Decoder: m[decoder] as new () => D, Encoder: m[encoder] as new () => E };
    })();
    return loading;
  };
}

export const libjpegTurbo = lazy<WasmDecoder, JpegTurboEncoder>(
  '@cornerstonejs/codec-libjpeg-turbo-8bit/wasmjs',
  'JPEGDecoder',
  'JPEGEncoder',
);
export const charls = lazy<WasmDecoder, JpegLsEncoder>(
  '@cornerstonejs/codec-charls/wasmjs',
  'JpegLSDecoder',
  'JpegLSEncoder',
);
export const openjpeg = lazy<WasmDecoder, J2kEncoder>(
  '@cornerstonejs/codec-openjpeg/wasmjs',
  'J2KDecoder',
  'J2KEncoder',
);
export const openjph = lazy<WasmDecoder, HtJ2kEncoder>(
  '@cornerstonejs/codec-openjph/wasmjs',
  'HTJ2KDecoder',
  'HTJ2KEncoder',
);

/** Decodes `bytes` with a fresh decoder of the codec: the frame's info and a copy of its samples. */
export function runDecoder(
  Decoder: new () => WasmDecoder,
  bytes: Uint8Array,
): { info: FrameInfo; decoded: Uint8Array; interleaveMode?: number } {
  const d = new Decoder();
  try {
    d.getEncodedBuffer(bytes.length).set(bytes);
    d.decode();
    const info = d.getFrameInfo();
    const decoded = new Uint8Array(d.getDecodedBuffer()); // a copy, out of the WASM heap
    return { info, decoded, ...(d.getInterleaveMode ? { interleaveMode: d.getInterleaveMode() } : {}) };
  } finally {
    d.delete();
  }
}

/** Encodes `samples` (little endian, interleaved) with a fresh encoder set up by `setup`: a copy of the bit stream. */
export function runEncoder<E extends WasmEncoder>(
  Encoder: new () => E,
  info: FrameInfo,
  samples: Uint8Array,
  setup?: (e: E) => void,
): Uint8Array {
  const e = new Encoder();
  try {
    e.getDecodedBuffer(info).set(samples);
    setup?.(e);
    e.encode();
    return new Uint8Array(e.getEncodedBuffer()); // a copy (libjpeg-turbo's is a Uint8ClampedArray)
  } finally {
    e.delete();
  }
}

/**
 * A turn of the event loop: the codecs run synchronously (tens of milliseconds a frame), so a loop
 * over many frames lets other requests in between them.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
