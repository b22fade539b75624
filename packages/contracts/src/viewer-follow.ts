import { z } from 'zod';

/**
 * Shared viewing (issue 25 "Shared viewing"): in a consultation, one participant presents and the
 * others' viewers follow the presenter's series, image, window/level, zoom and pan, orientation
 * and measurements. The state travels as a video room signal (`view`, contracts/video.ts) on
 * `rtc:<consultationId>`, so it is keyed by DICOM UIDs, never by exam ids: the target organization
 * reads a copy of the source's exam (same Study/Series/SOP Instance UIDs, another exam id).
 * One event stays well under FOLLOW_MAX_STATE_BYTES of JSON (a live event's limit is 7,900 bytes
 * with its envelope: contracts/live.ts LIVE_MAX_PAYLOAD_BYTES).
 */
export const FOLLOW_MAX_STATE_BYTES = 4_000;
/** the presenter sends at most this often (≤ 10 per second; the last state wins) */
export const FOLLOW_MIN_INTERVAL_MS = 100;
export const FOLLOW_MAX_MEASUREMENTS = 8;
export const FOLLOW_MAX_POINTS = 4;
export const FOLLOW_LABEL_MAX = 64;
export const FOLLOW_MAX_IMAGE_INDEX = 99_999;
/** coordinates are sent with this many decimals (world coordinates are mm) */
export const FOLLOW_DECIMALS = 3;
/** the measurement tools whose marks follow */
export const FOLLOW_TOOLS = ['Length', 'Angle', 'EllipticalROI', 'RectangleROI', 'ArrowAnnotate'] as const;
export type FollowTool = (typeof FOLLOW_TOOLS)[number];

const uid = z.string().regex(/^[0-9A-Za-z._-]{1,64}$/);
const coordinate = z.number().min(-1e6).max(1e6);
export const followPointSchema = z.tuple([coordinate, coordinate, coordinate]);
export type FollowPoint = z.infer<typeof followPointSchema>;
const imageIndex = z.number().int().min(0).max(FOLLOW_MAX_IMAGE_INDEX);

/** A measurement of the presenter, drawn on an image of the shown series, its points in world coordinates. */
export const followMeasurementSchema = z
  .object({
    tool: z.enum(FOLLOW_TOOLS),
    /** the image it is drawn on: its index in the series' stack (instance number order) */
    image: imageIndex,
    points: z.array(followPointSchema).min(1).max(FOLLOW_MAX_POINTS),
    /** an arrow's text */
    label: z.string().max(FOLLOW_LABEL_MAX).optional(),
  })
  .strict();
export type FollowMeasurement = z.infer<typeof followMeasurementSchema>;

/** What the presenter's active viewport shows. */
export const viewStateObjectSchema = z
  .object({
    studyUid: uid,
    seriesUid: uid,
    /** the shown image's index in the series' stack */
    image: imageIndex,
    /** the shown image's SOP Instance UID (finds it should the stacks differ) */
    sopUid: uid.optional(),
    /** window center and width; null: as stored in the image */
    voi: z
      .object({ center: z.number().min(-1e6).max(1e6), width: z.number().positive().max(1e6) })
      .strict()
      .nullable(),
    invert: z.boolean(),
    /** degrees, 0 ≤ rotation < 360 */
    rotation: z.number().min(0).lt(360),
    flipH: z.boolean(),
    flipV: z.boolean(),
    /** the camera: parallel scale (zoom) and focal point (pan); null: fitted */
    camera: z
      .object({ scale: z.number().positive().max(1e6), focal: followPointSchema })
      .strict()
      .nullable(),
    measurements: z.array(followMeasurementSchema).max(FOLLOW_MAX_MEASUREMENTS),
  })
  .strict();
export type ViewState = z.infer<typeof viewStateObjectSchema>;

/** The UTF-8 bytes of a value's JSON. */
export function followJsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/** A view state as sent: the object's rules plus its size. */
export const viewStateSchema = viewStateObjectSchema.refine((s) => followJsonBytes(s) <= FOLLOW_MAX_STATE_BYTES, {
  message: `a view state is at most ${FOLLOW_MAX_STATE_BYTES} bytes of JSON`,
});

const round = (n: number, decimals = FOLLOW_DECIMALS): number => {
  const f = 10 ** decimals;
  const r = Math.round(n * f) / f;
  return Object.is(r, -0) ? 0 : r;
};
const roundPoint = (p: readonly number[]): FollowPoint => [round(p[0] ?? 0), round(p[1] ?? 0), round(p[2] ?? 0)];

/**
 * A state ready to send: numbers rounded to FOLLOW_DECIMALS, labels cut to FOLLOW_LABEL_MAX, at
 * most FOLLOW_MAX_MEASUREMENTS measurements (the last drawn kept), then measurements dropped from
 * the oldest until it fits FOLLOW_MAX_STATE_BYTES.
 */
export function fitViewState(state: ViewState): ViewState {
  const measurements = state.measurements.slice(-FOLLOW_MAX_MEASUREMENTS).map((m) => ({
    ...m,
    points: m.points.slice(0, FOLLOW_MAX_POINTS).map(roundPoint),
    ...(m.label !== undefined ? { label: m.label.slice(0, FOLLOW_LABEL_MAX) } : {}),
  }));
  const out: ViewState = {
    ...state,
    voi: state.voi ? { center: round(state.voi.center, 2), width: round(state.voi.width, 2) } : null,
    rotation: round(((state.rotation % 360) + 360) % 360, 2) % 360,
    camera: state.camera ? { scale: round(state.camera.scale), focal: roundPoint(state.camera.focal) } : null,
    measurements,
  };
  while (out.measurements.length > 0 && followJsonBytes(out) > FOLLOW_MAX_STATE_BYTES) {
    out.measurements = out.measurements.slice(1);
  }
  return out;
}

const near = (a: number, b: number, tolerance: number) => Math.abs(a - b) <= tolerance;

/** Whether two measurement lists draw the same marks. */
export function sameMeasurements(a: readonly FollowMeasurement[], b: readonly FollowMeasurement[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((m, i) => {
    const o = b[i]!;
    return (
      m.tool === o.tool &&
      m.image === o.image &&
      (m.label ?? '') === (o.label ?? '') &&
      m.points.length === o.points.length &&
      m.points.every((p, j) => p.every((c, k) => near(c, o.points[j]![k]!, 0.01)))
    );
  });
}

/**
 * Whether two states show the same picture: series, image, window (within half a unit), inversion,
 * orientation, camera (scale within 0.1 %, focal point within 0.01 mm) and, unless told not to,
 * the measurements. A follower is in step when its viewport's state is the same view as the
 * presenter's; the presenter skips a state the same view as the one it sent last.
 */
export function sameView(a: ViewState, b: ViewState, options: { measurements?: boolean } = {}): boolean {
  if (a.studyUid !== b.studyUid || a.seriesUid !== b.seriesUid || a.image !== b.image) return false;
  if (a.invert !== b.invert || a.flipH !== b.flipH || a.flipV !== b.flipV) return false;
  if (!near(a.rotation, b.rotation, 0.01)) return false;
  if ((a.voi === null) !== (b.voi === null)) return false;
  if (a.voi && b.voi && !(near(a.voi.center, b.voi.center, 0.5) && near(a.voi.width, b.voi.width, 0.5))) return false;
  if ((a.camera === null) !== (b.camera === null)) return false;
  if (a.camera && b.camera) {
    if (!near(a.camera.scale, b.camera.scale, Math.max(1e-6, b.camera.scale * 1e-3))) return false;
    if (!a.camera.focal.every((c, i) => near(c, b.camera!.focal[i]!, 0.01))) return false;
  }
  return options.measurements === false || sameMeasurements(a.measurements, b.measurements);
}

/** Who presents now, as the room's signals tell it. */
export interface Presenter {
  peerId: string;
  accountId: string;
  name: string;
}

/**
 * The presenter after a signal from `from`: the latest `present on` wins; `present off` (or a
 * `leave`) from the presenter stops it (from anyone else changes nothing); a `view` names its
 * sender when nobody is known to present (a follower joining late hears the answer to its
 * view-request before any `present`).
 */
export function nextPresenter(
  current: Presenter | null,
  signal: { kind: string; on?: boolean },
  from: Presenter,
): Presenter | null {
  if (signal.kind === 'present') {
    if (signal.on) return { peerId: from.peerId, accountId: from.accountId, name: from.name };
    return current?.peerId === from.peerId ? null : current;
  }
  if (signal.kind === 'leave') return current?.peerId === from.peerId ? null : current;
  if (signal.kind === 'view' && current === null) {
    return { peerId: from.peerId, accountId: from.accountId, name: from.name };
  }
  return current;
}

/**
 * The coalescer's plan: how long to wait before sending a state that changed at `now`, when the
 * last one went at `lastSentAt` (null: none yet): 0 sends at once, otherwise the state waits (and a
 * newer one replaces it) so at most one goes per FOLLOW_MIN_INTERVAL_MS.
 */
export function followSendDelay(lastSentAt: number | null, now: number, interval = FOLLOW_MIN_INTERVAL_MS): number {
  if (lastSentAt === null) return 0;
  return Math.max(0, lastSentAt + interval - now);
}
