import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccount } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/** report-view GET and POST (spec 001 §7 Reports): the caller's own report-view settings. */
let t: TestApp;
let doctor: string;
let senior: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // Settings are the caller's own: two accounts of no organization are enough.
  doctor = (await makeAccount(t)).token;
  senior = (await makeAccount(t)).token;
});
afterAll(async () => {
  await t.close();
});

describe('report-view', () => {
  it('answers the defaults of spec 000 §9 for settings never set', async () => {
    const res = await t.as(doctor).get('report-view');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      imageColumn: 2,
      approveMode: '',
      pastExamSort: 'desc',
      viewerSize: { width: 800, height: 815 },
    });
  });

  it("keeps the caller's changes, merged into its preferences, and touches nobody else's", async () => {
    const saved = await t.as(doctor).post('report-view', { imageColumn: 3, viewerSize: { width: 1024, height: 900 } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({
      imageColumn: 3,
      approveMode: '',
      pastExamSort: 'desc',
      viewerSize: { width: 1024, height: 900 },
    });
    await t.as(doctor).post('report-view', { pastExamSort: 'asc' });
    expect((await t.as(doctor).get('report-view')).json()).toMatchObject({ imageColumn: 3, pastExamSort: 'asc' });
    // The same values are the account's preferences (accounts/me), beside the others it keeps.
    expect((await t.as(doctor).get('accounts/me')).json().preferences).toMatchObject({
      imageColumn: 3,
      pastExamSort: 'asc',
      viewerSize: { width: 1024, height: 900 },
    });
    expect((await t.as(senior).get('report-view')).json().imageColumn).toBe(2);
  });

  it('refuses values out of range and unknown keys with 400, changing nothing', async () => {
    for (const body of [
      { imageColumn: 0 },
      { imageColumn: 5 },
      { pastExamSort: 'newest' },
      { viewerSize: { width: 10, height: 815 } },
      { approveMode: 'x'.repeat(33) },
      { theme: 'dark' },
    ]) {
      const res = await t.as(doctor).post('report-view', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await t.as(doctor).get('report-view')).json()).toMatchObject({ imageColumn: 3, pastExamSort: 'asc' });
  });

  it('needs a session', async () => {
    expect((await t.call('GET', 'report-view')).statusCode).toBe(401);
    expect((await t.call('POST', 'report-view', { body: { imageColumn: 1 } })).statusCode).toBe(401);
  });
});
