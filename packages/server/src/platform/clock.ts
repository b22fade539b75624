/** Injectable time source so lockouts and expiries can be tested without waiting. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
