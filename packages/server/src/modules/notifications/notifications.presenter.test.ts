import { describe, expect, it } from 'vitest';
import { examTime } from './notifications.presenter.js';

describe('examTime', () => {
  const arrived = new Date('2026-11-22T08:00:00Z');
  it('joins the study date and time as local ISO 8601', () => {
    expect(examTime('20261121', '093005', arrived)).toBe('2026-11-21T09:30:05');
    expect(examTime('20261121', '093005.123456', arrived)).toBe('2026-11-21T09:30:05');
    expect(examTime('20261121', '0930', arrived)).toBe('2026-11-21T09:30:00');
    expect(examTime('20261121', '', arrived)).toBe('2026-11-21T00:00:00');
  });
  it('falls back to the arrival time without a valid study date', () => {
    expect(examTime('', '093005', arrived)).toBe('2026-11-22T08:00:00.000Z');
    expect(examTime('2026-11-21', '', arrived)).toBe('2026-11-22T08:00:00.000Z');
  });
});
