import { PROCEDURE_IMPORT_MAX_BYTES, XLSX_CONTENT_TYPE, type Procedure } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { auditActions, CHS_HEADER, EN_HEADER, makeProcedureStaff, ok, xlsxOf } from './procedures.fixture.js';

/**
 * The Excel import of procedure management (issue 22): all rows or none, every bad row listed;
 * an organization that already has the head CT (code CT-HEAD), as procedures.int.test.ts leaves it.
 */
let t: TestApp;
let org: BuiltOrganization;
let tok: Record<string, string>;

const base = () => `buckets/${org.bucketId}`;
const admin = () => t.as(tok.admin!);

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  ({ org, tok } = await makeProcedureStaff(t));
  const head = await admin().post(`${base()}/procedures`, {
    name: '头颅平扫',
    code: 'CT-HEAD',
    modality: 'CT',
    price: 12000,
  });
  expect(head.statusCode, head.body).toBe(201);
});
afterAll(async () => {
  await t.close();
});

describe('Excel import', () => {
  const upload = (file: Buffer, token = tok.admin, contentType = XLSX_CONTENT_TYPE) =>
    t.call('POST', `${base()}/procedures/import`, { token, body: file, headers: { 'content-type': contentType } });

  it('creates new codes and updates those the organization has, after its last procedure', async () => {
    ok(await admin().post(`${base()}/device-groups`, { name: '导入组' }), 201);
    const before = ok<Procedure[]>(await admin().get(`${base()}/procedures`));
    const file = await xlsxOf([
      EN_HEADER,
      ['导入一', 'IMP-1', 'Import one', '88.8', '', '是', 1, 'CT', 'IMP_AE', '导入组', '定位；扫描', '否', 'no', '0'],
      ['头颅平扫（导入）', 'ct-head', '', 150, '', '', '', 'CT', '', '', '', '', '', ''],
    ]);
    expect(ok(await upload(file))).toEqual({ created: 1, updated: 1 });
    const after = ok<Procedure[]>(await admin().get(`${base()}/procedures`));
    expect(after).toHaveLength(before.length + 1);
    const created = after.find((p) => p.code === 'IMP-1')!;
    expect(created).toMatchObject({ price: 8880, isEnhanced: true, aeTitle: 'IMP_AE', steps: ['定位', '扫描'] });
    expect(created.deviceGroupIds).toHaveLength(1);
    expect(created.sort).toBeGreaterThan(Math.max(...before.map((p) => p.sort)));
    const head = after.find((p) => p.code === 'CT-HEAD')!;
    expect(head).toMatchObject({ name: '头颅平扫（导入）', price: 15000 });
    expect(await auditActions(t, org.bucketId, 'procedure.import')).toBe(1);
  });

  it('imports nothing when any row is bad, and lists every bad row', async () => {
    const before = ok<Procedure[]>(await admin().get(`${base()}/procedures`));
    const file = await xlsxOf([
      CHS_HEADER,
      ['好行', 'OK-1', '', '', '', '', '', 'CT', '', '', '', '', '', ''],
      ['坏价', 'BAD-1', '', 'abc', '', '', '', 'CT', '', '', '', '', '', ''],
      ['坏组', 'BAD-2', '', '', '', '', '', 'CT', '', '别人的组', '', '', '', ''],
      ['头颅平扫', 'IMP-1', '', '', '', '', '', '', '', '', '', '', '', ''],
    ]);
    const res = await upload(file);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ValidationError' });
    const rows = (res.json() as { details: { rows: { row: number; column: string }[] } }).details.rows;
    expect(rows.map((r) => [r.row, r.column])).toEqual([
      [3, 'price'],
      [4, 'deviceGroups'],
      [5, 'modality'],
    ]);
    expect(ok<Procedure[]>(await admin().get(`${base()}/procedures`))).toEqual(before);
  });

  it('refuses what is not a sheet of procedures, a member (403) and another group (404)', async () => {
    const file = await xlsxOf([EN_HEADER.slice(0, 8), ['权限', 'PERM-X', '', '', '', '', '', 'CT']]);
    expect((await upload(Buffer.from('not a workbook'))).statusCode).toBe(400);
    // the route's own limit (5 MB), not the API's JSON body limit
    expect((await upload(Buffer.alloc(200 * 1024, 1))).statusCode).toBe(400);
    expect((await upload(Buffer.alloc(PROCEDURE_IMPORT_MAX_BYTES + 1, 1))).statusCode).toBe(413);
    expect((await upload(await xlsxOf([['name', 'code', 'modality']]))).statusCode).toBe(400);
    expect((await upload(file, tok.admin, 'application/octet-stream')).statusCode).toBe(415);
    expect((await upload(file, tok.member)).statusCode).toBe(403);
    expect((await upload(file, tok.otherAdmin)).statusCode).toBe(404);
    expect((await upload(file, tok.groupAdmin)).statusCode).toBe(200);
  });
});
