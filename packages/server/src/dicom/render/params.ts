import type { VoiFunction, Window } from './pixel-module.js';
import type { Viewport } from './viewport.js';

/** The media types rendered resources are answered in, the default (PS3.18 8.7.4: image/jpeg) first. */
export const RENDERED_TYPES = ['image/jpeg', 'image/png'] as const;
export type RenderedType = (typeof RENDERED_TYPES)[number];

/** What a rendered or thumbnail request asks (PS3.18 8.3.5.1, 9.5.1.2). */
export interface RenderParams {
  window?: Window;
  voiFunction?: VoiFunction;
  viewport?: Viewport;
  /** JPEG quality, 1..100 */
  quality: number;
}

/** A parameter the request gives that cannot be honoured: answered 400 with this message. */
export class RenderParamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderParamError';
  }
}

export const DEFAULT_QUALITY = 90;
/** The largest viewport side answered: larger ones are refused rather than allocated. */
export const MAX_VIEWPORT = 8192;
/** A thumbnail's viewport when the request names none. */
export const THUMBNAIL_SIZE = 128;

const FUNCTIONS: Record<string, VoiFunction> = {
  linear: 'LINEAR',
  'linear-exact': 'LINEAR_EXACT',
  linear_exact: 'LINEAR_EXACT',
  sigmoid: 'SIGMOID',
};

function single(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new RenderParamError(`${name} is given more than once`);
  return String(v);
}

function decimal(text: string, what: string): number {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(n)) throw new RenderParamError(`${what} must be a number, not "${text}"`);
  return n;
}

function integer(text: string, what: string, min: number, max: number): number {
  const n = decimal(text, what);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new RenderParamError(`${what} must be a whole number from ${min} to ${max}, not "${text}"`);
  }
  return n;
}

function windowOf(text: string): { window: Window; voiFunction: VoiFunction } {
  const parts = text.split(',');
  if (parts.length < 2 || parts.length > 3) {
    throw new RenderParamError('window is center,width[,function] (function linear, linear-exact or sigmoid)');
  }
  const center = decimal(parts[0]!, 'The window center');
  const width = decimal(parts[1]!, 'The window width');
  const name = (parts[2] ?? 'linear').trim().toLowerCase();
  const voiFunction = FUNCTIONS[name];
  if (!voiFunction) throw new RenderParamError(`The window function is linear, linear-exact or sigmoid, not "${name}"`);
  // PS3.3 C.11.2.1.2: LINEAR needs a width of at least 1; the others more than 0.
  if (voiFunction === 'LINEAR' ? width < 1 : width <= 0) {
    throw new RenderParamError(`The window width must be ${voiFunction === 'LINEAR' ? 'at least 1' : 'above 0'}`);
  }
  return { window: { center, width }, voiFunction };
}

function viewportOf(text: string): Viewport {
  const parts = text.split(',');
  if (parts.length !== 2 && parts.length !== 6) {
    throw new RenderParamError('viewport is vw,vh or vw,vh,sx,sy,sw,sh');
  }
  const viewport: Viewport = {
    vw: integer(parts[0]!, 'The viewport width', 1, MAX_VIEWPORT),
    vh: integer(parts[1]!, 'The viewport height', 1, MAX_VIEWPORT),
  };
  // Each of sx, sy, sw, sh may be left empty: the image's origin and its extent from there.
  const [sx, sy, sw, sh] = parts.slice(2).map((p) => p.trim());
  if (sx) viewport.sx = integer(sx, 'sx', 0, 65535);
  if (sy) viewport.sy = integer(sy, 'sy', 0, 65535);
  if (sw) viewport.sw = integer(sw, 'sw', -65535, 65535);
  if (sh) viewport.sh = integer(sh, 'sh', -65535, 65535);
  if (viewport.sw === 0 || viewport.sh === 0) throw new RenderParamError('sw and sh cannot be 0');
  return viewport;
}

/**
 * The parameters of a rendered (or, with `thumbnail`, a thumbnail) request. Parameters the
 * server may ignore (annotation, charset, iccprofile) and any others are ignored.
 */
export function renderParams(query: Record<string, unknown>, thumbnail = false): RenderParams {
  const params: RenderParams = { quality: DEFAULT_QUALITY };
  const window = single(query, 'window');
  if (window !== undefined) Object.assign(params, windowOf(window));
  const viewport = single(query, 'viewport');
  if (viewport !== undefined) params.viewport = viewportOf(viewport);
  else if (thumbnail) params.viewport = { vw: THUMBNAIL_SIZE, vh: THUMBNAIL_SIZE };
  const quality = single(query, 'quality');
  if (quality !== undefined) params.quality = integer(quality, 'quality', 1, 100);
  return params;
}

/**
 * The media type to answer with for an Accept header (RFC 9110 12.5.1): the acceptable type of
 * the highest weight, image/jpeg on a tie or with no Accept header; undefined when neither is
 * acceptable (406).
 */
export function renderedType(accept: string | undefined): RenderedType | undefined {
  if (!accept || accept.trim() === '') return RENDERED_TYPES[0];
  const ranges = accept.split(',').flatMap((item) => {
    const [essence, ...rest] = item.split(';');
    const type = essence!.trim().toLowerCase();
    if (!type) return [];
    const q = rest.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    return [{ type, q: Number.isFinite(weight) ? weight : 1 }];
  });
  let best: { type: RenderedType; q: number } | undefined;
  for (const offer of RENDERED_TYPES) {
    // The most specific range naming the offer decides its weight.
    const named =
      ranges.find((r) => r.type === offer) ??
      ranges.find((r) => r.type === 'image/*') ??
      ranges.find((r) => r.type === '*/*');
    if (named && named.q > 0 && (!best || named.q > best.q)) best = { type: offer, q: named.q };
  }
  return best?.type;
}
