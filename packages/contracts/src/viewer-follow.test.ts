import { describe, expect, it } from 'vitest';
import {
  FOLLOW_LABEL_MAX,
  FOLLOW_MAX_MEASUREMENTS,
  FOLLOW_MAX_STATE_BYTES,
  FOLLOW_MIN_INTERVAL_MS,
  fitViewState,
  followJsonBytes,
  followSendDelay,
  nextPresenter,
  sameView,
  viewStateSchema,
  type FollowMeasurement,
  type ViewState,
} from './viewer-follow.js';
import { videoEnvelopeSchema, videoSignalSchema } from './video.js';

const uid64 = `1.2.${'9'.repeat(60)}`;
const base: ViewState = {
  studyUid: '1.2.3',
  seriesUid: '1.2.3.4',
  image: 12,
  sopUid: '1.2.3.4.13',
  voi: { center: 40, width: 400 },
  invert: false,
  rotation: 0,
  flipH: false,
  flipV: false,
  camera: { scale: 175.5, focal: [0.5, -12.25, 100] },
  measurements: [
    {
      tool: 'Length',
      image: 12,
      points: [
        [0, 0, 100],
        [10, 0, 100],
      ],
    },
  ],
};

/** The largest measurement the schema admits, after rounding (CJK label: 3 bytes a character). */
const worstMeasurement = (): FollowMeasurement => ({
  tool: 'EllipticalROI',
  image: 99_999,
  points: Array.from({ length: 4 }, () => [-999_999.999, -999_999.999, -999_999.999] as [number, number, number]),
  label: '肺'.repeat(FOLLOW_LABEL_MAX),
});

describe('view state schema', () => {
  it('accepts a state and refuses what is out of bounds', () => {
    expect(viewStateSchema.safeParse(base).success).toBe(true);
    expect(viewStateSchema.safeParse({ ...base, voi: null, camera: null, measurements: [] }).success).toBe(true);
    expect(viewStateSchema.safeParse({ ...base, studyUid: '' }).success).toBe(false);
    expect(viewStateSchema.safeParse({ ...base, studyUid: 'a"b' }).success).toBe(false);
    expect(viewStateSchema.safeParse({ ...base, studyUid: uid64 + '1' }).success).toBe(false);
    expect(viewStateSchema.safeParse({ ...base, image: -1 }).success).toBe(false);
    expect(viewStateSchema.safeParse({ ...base, image: 1.5 }).success).toBe(false);
    expect(viewStateSchema.safeParse({ ...base, voi: { center: 40, width: 0 } }).success).toBe(false);
    expect(viewStateSchema.safeParse({ ...base, rotation: 360 }).success).toBe(false);
    expect(viewStateSchema.safeParse({ ...base, camera: { scale: Infinity, focal: [0, 0, 0] } }).success).toBe(false);
    expect(viewStateSchema.safeParse({ ...base, camera: { scale: 1, focal: [0, 0] } }).success).toBe(false);
    expect(viewStateSchema.safeParse({ ...base, extra: 1 }).success).toBe(false);
    const m = base.measurements[0]!;
    expect(viewStateSchema.safeParse({ ...base, measurements: [{ ...m, tool: 'Probe' }] }).success).toBe(false);
    expect(viewStateSchema.safeParse({ ...base, measurements: [{ ...m, points: [] }] }).success).toBe(false);
    const five = Array.from({ length: 5 }, () => [0, 0, 0]);
    expect(viewStateSchema.safeParse({ ...base, measurements: [{ ...m, points: five }] }).success).toBe(false);
    const tooMany = Array.from({ length: FOLLOW_MAX_MEASUREMENTS + 1 }, () => m);
    expect(viewStateSchema.safeParse({ ...base, measurements: tooMany }).success).toBe(false);
    const long = { ...m, label: 'x'.repeat(FOLLOW_LABEL_MAX + 1) };
    expect(viewStateSchema.safeParse({ ...base, measurements: [long] }).success).toBe(false);
  });

  it('refuses a state past its byte budget (long numbers) and fitViewState brings it under', () => {
    const long = 1 / 3 - 999_999;
    const heavy: ViewState = {
      ...base,
      studyUid: uid64,
      seriesUid: uid64,
      sopUid: uid64,
      measurements: Array.from({ length: FOLLOW_MAX_MEASUREMENTS }, () => ({
        ...worstMeasurement(),
        points: Array.from({ length: 4 }, () => [long, long, long] as [number, number, number]),
      })),
    };
    expect(followJsonBytes(heavy)).toBeGreaterThan(FOLLOW_MAX_STATE_BYTES);
    expect(viewStateSchema.safeParse(heavy).success).toBe(false);
    const fitted = fitViewState(heavy);
    expect(followJsonBytes(fitted)).toBeLessThanOrEqual(FOLLOW_MAX_STATE_BYTES);
    expect(viewStateSchema.safeParse(fitted).success).toBe(true);
    // the newest measurements are the ones kept
    expect(fitted.measurements.length).toBeGreaterThan(0);
  });

  it('the largest fitted state, with its signal envelope, stays well under 5,000 bytes', () => {
    const worst = fitViewState({
      ...base,
      studyUid: uid64,
      seriesUid: uid64,
      sopUid: uid64,
      voi: { center: -999_999.99, width: 999_999.99 },
      rotation: 359.99,
      camera: { scale: 999_999.999, focal: [-999_999.999, -999_999.999, -999_999.999] },
      measurements: Array.from({ length: FOLLOW_MAX_MEASUREMENTS }, worstMeasurement),
    });
    const envelope = {
      from: { peerId: 'p'.repeat(64), accountId: 'a'.repeat(64), name: '专'.repeat(64) },
      data: { kind: 'view', state: worst },
    };
    expect(videoEnvelopeSchema.safeParse(envelope).success).toBe(true);
    expect(followJsonBytes(envelope)).toBeLessThan(5_000);
  });
});

describe('fitViewState', () => {
  it('rounds numbers, cuts labels and keeps the last measurements', () => {
    const marks = Array.from({ length: FOLLOW_MAX_MEASUREMENTS + 2 }, (_, i) => ({
      tool: 'ArrowAnnotate' as const,
      image: i,
      points: [[1.23456, -0.00001, 2] as [number, number, number]],
      label: 'y'.repeat(FOLLOW_LABEL_MAX + 5),
    }));
    const fitted = fitViewState({
      ...base,
      voi: { center: 40.126, width: 400.004 },
      rotation: -90,
      camera: { scale: 1.23456, focal: [1.00049, 2, 3] },
      measurements: marks,
    });
    expect(fitted.voi).toEqual({ center: 40.13, width: 400 });
    expect(fitted.rotation).toBe(270);
    expect(fitted.camera).toEqual({ scale: 1.235, focal: [1, 2, 3] });
    expect(fitted.measurements.map((m) => m.image)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(fitted.measurements[0]!.points[0]).toEqual([1.235, 0, 2]);
    expect(Object.is(fitted.measurements[0]!.points[0]![1], -0)).toBe(false);
    expect(fitted.measurements[0]!.label).toHaveLength(FOLLOW_LABEL_MAX);
  });
});

describe('sameView', () => {
  it('is the same view within tolerance and differs at each field', () => {
    expect(sameView(base, { ...base })).toBe(true);
    expect(sameView(base, { ...base, voi: { center: 40.4, width: 399.6 } })).toBe(true);
    expect(sameView(base, { ...base, camera: { scale: 175.5001, focal: [0.505, -12.25, 100] } })).toBe(true);
    expect(sameView(base, { ...base, seriesUid: '9' })).toBe(false);
    expect(sameView(base, { ...base, studyUid: '9' })).toBe(false);
    expect(sameView(base, { ...base, image: 13 })).toBe(false);
    expect(sameView(base, { ...base, voi: { center: 41, width: 400 } })).toBe(false);
    expect(sameView(base, { ...base, voi: null })).toBe(false);
    expect(sameView(base, { ...base, invert: true })).toBe(false);
    expect(sameView(base, { ...base, rotation: 90 })).toBe(false);
    expect(sameView(base, { ...base, flipH: true })).toBe(false);
    expect(sameView(base, { ...base, flipV: true })).toBe(false);
    expect(sameView(base, { ...base, camera: null })).toBe(false);
    expect(sameView(base, { ...base, camera: { scale: 180, focal: [0.5, -12.25, 100] } })).toBe(false);
    expect(sameView(base, { ...base, camera: { scale: 175.5, focal: [0.6, -12.25, 100] } })).toBe(false);
    const moved = {
      ...base,
      measurements: [
        {
          ...base.measurements[0]!,
          points: [
            [0, 0, 100],
            [11, 0, 100],
          ],
        },
      ],
    };
    expect(sameView(base, moved as ViewState)).toBe(false);
    expect(sameView(base, moved as ViewState, { measurements: false })).toBe(true);
    expect(sameView(base, { ...base, measurements: [] })).toBe(false);
    const relabelled = { ...base, measurements: [{ ...base.measurements[0]!, label: 'x' }] };
    expect(sameView(base, relabelled)).toBe(false);
  });
});

describe('nextPresenter', () => {
  const a = { peerId: 'pa', accountId: 'acc-a', name: '李医生' };
  const b = { peerId: 'pb', accountId: 'acc-b', name: 'Expert' };
  it('the latest present on wins; present off or leave of the presenter stops it', () => {
    expect(nextPresenter(null, { kind: 'present', on: true }, a)).toEqual(a);
    expect(nextPresenter(a, { kind: 'present', on: true }, b)).toEqual(b);
    expect(nextPresenter(b, { kind: 'present', on: false }, a)).toEqual(b);
    expect(nextPresenter(b, { kind: 'present', on: false }, b)).toBeNull();
    expect(nextPresenter(b, { kind: 'leave' }, a)).toEqual(b);
    expect(nextPresenter(b, { kind: 'leave' }, b)).toBeNull();
  });
  it('a view names its sender only while nobody is known to present', () => {
    expect(nextPresenter(null, { kind: 'view' }, a)).toEqual(a);
    expect(nextPresenter(b, { kind: 'view' }, a)).toEqual(b);
    expect(nextPresenter(b, { kind: 'view-request' }, a)).toEqual(b);
    expect(nextPresenter(null, { kind: 'state' }, a)).toBeNull();
  });
});

describe('followSendDelay', () => {
  it('sends at once, then at most one per interval', () => {
    expect(followSendDelay(null, 1_000)).toBe(0);
    expect(followSendDelay(1_000, 1_000)).toBe(FOLLOW_MIN_INTERVAL_MS);
    expect(followSendDelay(1_000, 1_040)).toBe(FOLLOW_MIN_INTERVAL_MS - 40);
    expect(followSendDelay(1_000, 1_000 + FOLLOW_MIN_INTERVAL_MS)).toBe(0);
    expect(followSendDelay(1_000, 5_000)).toBe(0);
  });
});

describe('follow signals', () => {
  it('present, view and view-request are room signals', () => {
    expect(videoSignalSchema.safeParse({ kind: 'present', on: true }).success).toBe(true);
    expect(videoSignalSchema.safeParse({ kind: 'present', on: false }).success).toBe(true);
    expect(videoSignalSchema.safeParse({ kind: 'present' }).success).toBe(false);
    expect(videoSignalSchema.safeParse({ kind: 'view', state: base }).success).toBe(true);
    expect(videoSignalSchema.safeParse({ kind: 'view', state: { ...base, image: -1 } }).success).toBe(false);
    expect(videoSignalSchema.safeParse({ kind: 'view-request' }).success).toBe(true);
    expect(videoSignalSchema.safeParse({ kind: 'view-request', to: 'x' }).success).toBe(false);
  });
});
