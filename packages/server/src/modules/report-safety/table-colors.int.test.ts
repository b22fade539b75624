import type { ReportTableColor } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, reportTableColors } from '../../db/schema.js';
import { makeHospital } from '../../test/factories-reports.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let tok: Record<string, string> = {};
let renhe = '';
let teleGroup = '';
const as = (who: string) => t.as(tok[who]!);
const colour = {
  name: '危急值未处理',
  field: 'critical',
  value: 'true',
  color: '#ffffff',
  background: '#cf1322',
  priority: 1,
};

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const h = await makeHospital(t, ['groupadmin', 'doctor', 'teleadmin']);
  ({ tok, groupId: renhe, teleGroupId: teleGroup } = h);
});
afterAll(async () => {
  await t.close();
});

describe('report table colours', () => {
  it('are written by group admins, read by members, lower priority first', async () => {
    expect((await as('doctor').post(`report-table-color?groupId=${renhe}`, colour)).statusCode).toBe(403);
    const made = await as('groupadmin').post(`report-table-color?groupId=${renhe}`, colour);
    expect(made.statusCode, made.body).toBe(201);
    const red = made.json() as ReportTableColor;
    expect(red).toMatchObject({ ...colour, groupId: renhe });
    const green = (
      await as('groupadmin').post(`report-table-color?groupId=${renhe}`, {
        ...colour,
        name: '已审核',
        field: 'status',
        value: 'corrected',
        background: '#389e0d',
        priority: 0,
      })
    ).json() as ReportTableColor;

    const listed = await as('doctor').get(`report-table-color?groupId=${renhe}`);
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as { items: ReportTableColor[] }).items.map((c) => c.id)).toEqual([green.id, red.id]);

    for (const bad of [
      { ...colour, field: 'modality' },
      { ...colour, color: 'red' },
      { ...colour, name: '' },
    ]) {
      expect((await as('groupadmin').post(`report-table-color?groupId=${renhe}`, bad)).statusCode).toBe(400);
    }

    expect((await as('doctor').put(`report-table-color/${red.id}`, colour)).statusCode).toBe(403);
    const changed = await as('groupadmin').put(`report-table-color/${red.id}`, { ...colour, priority: 5 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((changed.json() as ReportTableColor).priority).toBe(5);

    expect((await as('doctor').del(`report-table-color/${green.id}`)).statusCode).toBe(403);
    expect((await as('groupadmin').del(`report-table-color/${green.id}`)).statusCode).toBe(204);
    expect((await as('groupadmin').del(`report-table-color/${green.id}`)).statusCode).toBe(404);
    expect(
      (await t.db.database.db.select().from(reportTableColors).where(eq(reportTableColors.groupId, renhe))).map(
        (c) => c.id,
      ),
    ).toEqual([red.id]);
    // Configuration edits are operation rows: written while the domain's audit log is on (default).
    const trail = await t.db.database.db.select().from(auditLogs).where(eq(auditLogs.targetId, red.id));
    expect(trail.map((a) => a.action).sort()).toEqual(['report_table_color.create', 'report_table_color.update']);
  });

  it('answers another group 404 and none of the data', async () => {
    const red = (
      await as('groupadmin').post(`report-table-color?groupId=${renhe}`, { ...colour, name: '机密颜色' })
    ).json() as ReportTableColor;
    for (const res of [
      await as('teleadmin').get(`report-table-color?groupId=${renhe}`),
      await as('teleadmin').post(`report-table-color?groupId=${renhe}`, colour),
      await as('teleadmin').put(`report-table-color/${red.id}`, colour),
      await as('teleadmin').del(`report-table-color/${red.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('机密颜色');
    }
    // Its own group sees only its own colours.
    const own = await as('teleadmin').get(`report-table-color?groupId=${teleGroup}`);
    expect((own.json() as { items: unknown[] }).items).toEqual([]);
  });
});
