import type { ReportSync } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { as, content, newExam, ok, signInAgain, t, useReportsFixture } from './reports.fixture.js';

useReportsFixture();

describe("the editor's heartbeat", () => {
  it('answers when the report was last saved, by whoever saved it', async () => {
    const id = await newExam();
    const sync = async (who: string) => {
      const res = await as(who).post(`reports/${id}/sync`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ReportSync;
    };
    expect(await sync('senior')).toMatchObject({ savedAt: null, version: 0, lock: null });

    await ok('doctor', id, 'lock');
    const first = await ok('doctor', id, 'save', { version: 0, content: content('所见', '') });
    expect(first.savedAt).not.toBeNull();
    await ok('doctor', id, 'unlock');
    expect(await sync('senior')).toMatchObject({ savedAt: first.savedAt, version: 1 });

    // A minute later it is saved again (the writer, from another workstation): whoever's heartbeat
    // it is, the answer carries the new time.
    t.clock.advance(60_000);
    const elsewhere = await signInAgain('doctor');
    const second = await t.as(elsewhere).post(`reports/${id}/lock`);
    expect(second.statusCode, second.body).toBe(200);
    const saved = await t.as(elsewhere).post(`reports/${id}/save`, { version: 1, content: content('所见，补充', '') });
    expect(saved.statusCode, saved.body).toBe(200);
    const savedAt = (saved.json() as { savedAt: string }).savedAt;
    expect(Date.parse(savedAt) - Date.parse(first.savedAt!)).toBe(60_000);
    expect(await sync('senior')).toMatchObject({ savedAt, version: 2, lock: { mine: false } });
  });
});
