import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDesk, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * The desk's stored preferences (spec 000 §9 "study and registry filters, print label … templates"):
 * PATCH accounts/me keeps the registry's filters and the label printing, and refuses values the
 * desk cannot choose with a 400, keeping what was stored.
 */
let t: TestApp;
let desk: Desk;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t);
});
afterAll(async () => {
  await t.close();
});

const patch = (preferences: unknown) =>
  t.call('PATCH', 'accounts/me', { token: desk.registrar.token, body: { preferences } });

describe("the desk's preferences", () => {
  it('keeps the registry filters and the label layout and copies', async () => {
    const registryFilters = { bucketId: desk.org.bucketId, source: 'all', statuses: ['Arrived'], quickRange: 7 };
    const printLabel = { layout: 'sheet', copies: 2 };
    expect((await patch({ registryFilters })).statusCode).toBe(200);
    expect((await patch({ printLabel })).statusCode).toBe(200);
    expect((await t.as(desk.registrar.token).get('accounts/me')).json().preferences).toMatchObject({
      registryFilters,
      printLabel,
    });
  });

  it('refuses what the desk cannot choose with a 400 and keeps the stored values', async () => {
    const before = (await t.as(desk.registrar.token).get('accounts/me')).json().preferences;
    const bad = [
      { registryFilters: { quickRange: 5 } },
      { registryFilters: { source: 'elsewhere' } },
      { registryFilters: { statuses: ['Lost'] } },
      { registryFilters: { page: 3 } },
      { printLabel: { copies: 6 } },
      { printLabel: { copies: 0 } },
      { printLabel: { layout: 'roll' } },
    ];
    for (const preferences of bad) {
      const res = await patch(preferences);
      expect(res.statusCode, JSON.stringify(preferences)).toBe(400);
      expect(res.json().code).toBe('ValidationError');
    }
    expect((await t.as(desk.registrar.token).get('accounts/me')).json().preferences).toEqual(before);
  });
});
