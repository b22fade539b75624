import {
  MARK_CIRCLE_RADIUS,
  MARK_FONT_SIZE,
  markScale,
  type ImageDescTemplate,
  type ReportTemplate,
  type ReportTemplateLayout,
  type SampleGraph,
} from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, imageDescTemplates, reportTemplates, sampleGraphs } from '../../db/schema.js';
import { makeHospital, makeReportLibrary } from '../../test/factories-reports.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { jpegHeader, pngHeader } from './report-library.fixture.js';

let t: TestApp;
let tok: Record<string, string> = {};
let rad: string;
let us: string;
let tele: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const staff = ['doctor', 'senior', 'tech', 'registrar', 'teledoctor', 'admin'] as const;
  ({ tok, radiology: rad, ultrasound: us, tele } = await makeHospital(t, staff));
  await makeReportLibrary(t, rad, us, tele);
});
afterAll(async () => {
  await t.close();
});

const db = () => t.db.database.db;
const as = (who: string) => t.as(tok[who]!);
const patch = (who: string, url: string, body: unknown) => t.call('PATCH', url, { token: tok[who]!, body });
const list = async (who: string, query: string) => {
  const res = await as(who).get(`report-templates?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReportTemplate[];
};
const audited = async (action: string) =>
  (await db().select().from(auditLogs).where(eq(auditLogs.action, action))).map((r) => r.actorUsername);

describe('report templates', () => {
  it('lists the organization templates the demo seeded, editable with template_upsert', async () => {
    const templates = await list('doctor', `bucketId=${rad}`);
    expect(templates.map((x) => x.title)).toEqual(
      expect.arrayContaining(['胸部CT平扫 正常', '头颅CT平扫 正常', '腹部超声 正常', '胸部DR 正常']),
    );
    expect(templates.every((x) => x.scope === 'bucket' && x.bucketId === rad && x.editable)).toBe(true);
    const chest = templates.find((x) => x.title === '胸部CT平扫 正常')!;
    expect(chest.findings).toContain('双肺纹理清晰');
    expect(chest.conclusion).toBe('胸部CT平扫未见明显异常。');
    // A technician reads them (exam_get) but may not change them.
    const forTech = await list('tech', `bucketId=${rad}`);
    expect(forTech.length).toBe(templates.length);
    expect(forTech.every((x) => !x.editable)).toBe(true);
  });

  it('filters by modality (templates for any modality included) and searches title or category', async () => {
    const ct = await list('doctor', `bucketId=${rad}&modality=CT`);
    expect(ct.map((x) => x.title).sort()).toEqual(['头颅CT平扫 正常', '胸部CT平扫 正常']);
    expect((await list('doctor', `bucketId=${rad}&q=${encodeURIComponent('头颅')}`)).map((x) => x.title)).toEqual([
      '头颅CT平扫 正常',
    ]);
    // By category, and with LIKE wildcards taken literally.
    expect((await list('doctor', `bucketId=${rad}&q=${encodeURIComponent('腹部')}`)).length).toBe(1);
    expect(await list('doctor', `bucketId=${rad}&q=${encodeURIComponent('%')}`)).toEqual([]);
  });

  it('creates, reads, changes and deletes an organization template, audited', async () => {
    const created = await as('doctor').post('report-templates', {
      scope: 'bucket',
      bucketId: rad,
      category: '骨骼',
      title: '腰椎MR 正常',
      modality: 'MR',
      bodyPart: '腰椎',
      findings: '腰椎序列整齐，生理曲度存在。',
      conclusion: '腰椎MR平扫未见明显异常。',
    });
    expect(created.statusCode, created.body).toBe(201);
    const tpl = created.json() as ReportTemplate;
    expect(tpl).toMatchObject({ scope: 'bucket', bucketId: rad, ownerId: null, title: '腰椎MR 正常', editable: true });
    // The organization's other doctors see it.
    expect((await list('senior', `bucketId=${rad}`)).some((x) => x.id === tpl.id)).toBe(true);
    expect((await as('senior').get(`report-templates/${tpl.id}`)).json()).toMatchObject({ title: '腰椎MR 正常' });

    const changed = await as('senior').put(`report-templates/${tpl.id}`, { conclusion: '未见异常。' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ title: '腰椎MR 正常', conclusion: '未见异常。' });

    expect((await as('doctor').del(`report-templates/${tpl.id}`)).statusCode).toBe(204);
    expect((await as('doctor').get(`report-templates/${tpl.id}`)).statusCode).toBe(404);
    expect(await audited('report_template.create')).toContain('doctor');
    expect(await audited('report_template.update')).toContain('senior');
    expect(await audited('report_template.delete')).toContain('doctor');
  });

  it("keeps personal templates to their owner, listed beside any organization's", async () => {
    const res = await as('doctor').post('report-templates', {
      scope: 'personal',
      title: '我的胸片模板',
      findings: '心肺膈未见异常。',
    });
    expect(res.statusCode, res.body).toBe(201);
    const mine = res.json() as ReportTemplate;
    expect(mine).toMatchObject({ scope: 'personal', bucketId: null, editable: true, modality: '' });
    expect((await list('doctor', `bucketId=${us}`)).some((x) => x.id === mine.id)).toBe(true);
    // Organization templates come first.
    const inRad = await list('doctor', `bucketId=${rad}`);
    expect(inRad.at(-1)!.id).toBe(mine.id);
    // Nobody else sees, changes or deletes it: not even that it exists.
    expect((await list('senior', `bucketId=${rad}`)).some((x) => x.id === mine.id)).toBe(false);
    expect((await as('senior').get(`report-templates/${mine.id}`)).statusCode).toBe(404);
    expect((await as('senior').put(`report-templates/${mine.id}`, { title: 'x' })).statusCode).toBe(404);
    expect((await as('teledoctor').del(`report-templates/${mine.id}`)).statusCode).toBe(404);
    expect((await as('doctor').put(`report-templates/${mine.id}`, { title: '我的胸片' })).json()).toMatchObject({
      title: '我的胸片',
    });
    // An account that works in no organization has no personal templates to keep.
    expect((await as('admin').post('report-templates', { scope: 'personal', title: 'x' })).statusCode).toBe(403);
  });

  it('refuses a technician without template_upsert (403) and another group (404)', async () => {
    const body = { scope: 'bucket', bucketId: rad, title: '技师模板' };
    const before = await db().select().from(reportTemplates);
    expect((await as('tech').post('report-templates', body)).statusCode).toBe(403);
    expect((await as('teledoctor').post('report-templates', body)).statusCode).toBe(404);
    expect((await as('teledoctor').get(`report-templates?bucketId=${rad}`)).statusCode).toBe(404);
    const radTemplate = (await list('doctor', `bucketId=${rad}`))[0]!;
    expect((await as('teledoctor').get(`report-templates/${radTemplate.id}`)).statusCode).toBe(404);
    expect((await as('teledoctor').put(`report-templates/${radTemplate.id}`, { title: 'x' })).statusCode).toBe(404);
    expect((await as('tech').put(`report-templates/${radTemplate.id}`, { title: 'x' })).statusCode).toBe(403);
    expect((await as('tech').del(`report-templates/${radTemplate.id}`)).statusCode).toBe(403);
    expect(await db().select().from(reportTemplates)).toHaveLength(before.length);
    // The teleradiology group's own templates are its own.
    const theirs = await list('teledoctor', `bucketId=${tele}`);
    expect(theirs.every((x) => x.scope === 'personal' || x.bucketId === tele)).toBe(true);
    expect(theirs.some((x) => x.id === radTemplate.id)).toBe(false);
  });

  it('validates lengths and shape, and writes nothing for a bad request', async () => {
    const before = (await db().select().from(reportTemplates)).length;
    const bad = [
      { scope: 'bucket', bucketId: rad, title: 'x'.repeat(65) },
      { scope: 'bucket', bucketId: rad, title: '' },
      { scope: 'bucket', bucketId: rad, title: 'ok', category: 'c'.repeat(33) },
      { scope: 'bucket', bucketId: rad, title: 'ok', modality: 'M'.repeat(17) },
      { scope: 'bucket', bucketId: rad, title: 'ok', bodyPart: 'b'.repeat(65) },
      { scope: 'bucket', bucketId: rad, title: 'ok', findings: 'f'.repeat(20_001) },
      { scope: 'bucket', bucketId: rad, title: 'ok', conclusion: 'c'.repeat(20_001) },
      { scope: 'bucket', title: 'no organization' },
      { scope: 'personal', bucketId: rad, title: 'personal names none' },
      { scope: 'team', title: 'ok' },
      { scope: 'bucket', bucketId: rad, title: 'ok', extra: 1 },
    ];
    for (const body of bad) {
      const res = await as('doctor').post('report-templates', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    const one = (await list('doctor', `bucketId=${rad}`))[0]!;
    expect((await as('doctor').put(`report-templates/${one.id}`, { title: 'x'.repeat(65) })).statusCode).toBe(400);
    expect((await as('doctor').put(`report-templates/${one.id}`, { scope: 'personal' })).statusCode).toBe(400);
    expect((await db().select().from(reportTemplates)).length).toBe(before);
    expect((await as('doctor').get(`report-templates/${one.id}`)).json()).toMatchObject({ title: one.title });
    // 64 characters (Chinese ones count one each) are fine.
    const ok = await as('doctor').post('report-templates', { scope: 'personal', title: '模'.repeat(64) });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('answers the report layouts of a type, consultations being type 3', async () => {
    const all = (await as('tech').get('report-template-layouts/query')).json() as ReportTemplateLayout[];
    expect(new Set(all.map((l) => l.type))).toEqual(new Set([1, 2, 3]));
    const consultation = (
      await as('tech').get('report-template-layouts/query?type=3')
    ).json() as ReportTemplateLayout[];
    expect(consultation.length).toBeGreaterThan(0);
    expect(consultation.every((l) => l.type === 3 && l.sections.includes('suggestion'))).toBe(true);
    const reports = (await as('doctor').get('report-template-layouts/query?type=1')).json() as ReportTemplateLayout[];
    expect(reports.every((l) => l.type === 1 && l.sections.includes('findings'))).toBe(true);
    expect((await as('doctor').get('report-template-layouts/query?type=4')).statusCode).toBe(400);
    expect((await t.call('GET', 'report-template-layouts/query')).statusCode).toBe(401);
  });

  it('seeds the report library once, however often the seed runs', async () => {
    const count = async () =>
      (await db().select().from(reportTemplates).where(eq(reportTemplates.scope, 'bucket'))).length;
    const before = await count();
    await makeReportLibrary(t, rad, us, tele);
    expect(await count()).toBe(before);
  });
});

describe('image description templates', () => {
  const find = async (who: string, bucketId: string) => {
    const res = await as(who).get(`image-desc-templates/find-by-org?bucketId=${bucketId}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ImageDescTemplate[];
  };

  it("lists the organization's templates to whoever reads its report material", async () => {
    const seeded = await find('doctor', rad);
    expect(seeded).toHaveLength(2);
    expect(seeded.map((d) => d.modality).sort()).toEqual(['CT', 'MR']);
    expect(await find('registrar', rad)).toHaveLength(2);
    expect((await as('teledoctor').get(`image-desc-templates/find-by-org?bucketId=${rad}`)).statusCode).toBe(404);
  });

  it('creates, changes and deletes with template_upsert, audited', async () => {
    const res = await as('doctor').post('image-desc-templates', {
      bucketId: rad,
      title: '腹部CT增强 扫描说明',
      modality: 'CT',
      bodyPart: '腹部',
      content: '平扫后行动脉期、门脉期及延迟期扫描。',
    });
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json() as ImageDescTemplate;
    expect(d).toMatchObject({ bucketId: rad, title: '腹部CT增强 扫描说明' });
    const changed = await patch('senior', `image-desc-templates/${d.id}`, { content: '三期增强扫描。' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ title: '腹部CT增强 扫描说明', content: '三期增强扫描。' });
    expect((await find('doctor', rad)).some((x) => x.id === d.id && x.content === '三期增强扫描。')).toBe(true);

    // Refused: no template_upsert (403), another group (404), bad input (400).
    expect((await patch('tech', `image-desc-templates/${d.id}`, { title: 'x' })).statusCode).toBe(403);
    expect((await as('tech').del(`image-desc-templates/${d.id}`)).statusCode).toBe(403);
    expect((await as('tech').post('image-desc-templates', { bucketId: rad, title: 'x' })).statusCode).toBe(403);
    expect((await patch('teledoctor', `image-desc-templates/${d.id}`, { title: 'x' })).statusCode).toBe(404);
    expect((await as('teledoctor').post('image-desc-templates', { bucketId: rad, title: 'x' })).statusCode).toBe(404);
    expect((await patch('doctor', `image-desc-templates/${d.id}`, { title: 'x'.repeat(65) })).statusCode).toBe(400);
    expect((await patch('doctor', `image-desc-templates/${d.id}`, { bucketId: us })).statusCode).toBe(400);
    const bad = await as('doctor').post('image-desc-templates', {
      bucketId: rad,
      title: 'ok',
      modality: 'M'.repeat(17),
    });
    expect(bad.statusCode).toBe(400);
    expect((await find('doctor', rad)).find((x) => x.id === d.id)!.title).toBe('腹部CT增强 扫描说明');

    expect((await as('doctor').del(`image-desc-templates/${d.id}`)).statusCode).toBe(204);
    expect((await as('doctor').del(`image-desc-templates/${d.id}`)).statusCode).toBe(404);
    expect(await db().select().from(imageDescTemplates).where(eq(imageDescTemplates.id, d.id))).toEqual([]);
    expect(await audited('image_desc_template.create')).toContain('doctor');
    expect(await audited('image_desc_template.update')).toContain('senior');
    expect(await audited('image_desc_template.delete')).toContain('doctor');
  });
});

describe('sample graphs', () => {
  const upload = (who: string, bucketId: string, title: string, body: Buffer, type = 'image/png') =>
    t.call('POST', `sample-graphs/new?bucketId=${bucketId}&title=${encodeURIComponent(title)}`, {
      token: tok[who]!,
      body,
      headers: { 'content-type': type },
    });

  it('stores a PNG or JPEG with the size its header gives, listed with a download link', async () => {
    const png = pngHeader(800, 600);
    const res = await upload('tech', rad, '肝脏分段示意图', png);
    expect(res.statusCode, res.body).toBe(201);
    const graph = res.json() as SampleGraph;
    expect(graph).toMatchObject({
      bucketId: rad,
      title: '肝脏分段示意图',
      contentType: 'image/png',
      width: 800,
      height: 600,
      index: 0,
    });
    const jpeg = await upload('tech', rad, '乳腺象限', jpegHeader(640, 400), 'image/jpeg');
    expect(jpeg.statusCode, jpeg.body).toBe(201);
    expect(jpeg.json()).toMatchObject({ contentType: 'image/jpeg', width: 640, height: 400, index: 1 });

    const listed = await as('doctor').get(`sample-graphs/query?bucketId=${rad}`);
    expect(listed.statusCode, listed.body).toBe(200);
    const graphs = listed.json() as SampleGraph[];
    expect(graphs.map((g) => g.title)).toEqual(['肝脏分段示意图', '乳腺象限']);
    const download = await t.call('GET', graphs[0]!.url);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(png)).toBe(true);
    expect(await audited('sample_graph.create')).toContain('tech');
  });

  it('needs manage_sample_graph to add or delete, and hides other groups', async () => {
    expect((await upload('doctor', rad, 'x', pngHeader(10, 10))).statusCode).toBe(403);
    expect((await upload('teledoctor', rad, 'x', pngHeader(10, 10))).statusCode).toBe(404);
    expect((await as('teledoctor').get(`sample-graphs/query?bucketId=${rad}`)).statusCode).toBe(404);
    const [graph] = await db().select().from(sampleGraphs).where(eq(sampleGraphs.bucketId, rad));
    expect((await as('doctor').del(`sample-graphs/${graph!.id}`)).statusCode).toBe(403);
    expect((await as('teledoctor').del(`sample-graphs/${graph!.id}`)).statusCode).toBe(404);
    expect(await t.blobs.size(graph!.blobKey)).toBeGreaterThan(0);
    expect((await as('tech').del(`sample-graphs/${graph!.id}`)).statusCode).toBe(204);
    expect(await db().select().from(sampleGraphs).where(eq(sampleGraphs.id, graph!.id))).toEqual([]);
    expect(await t.blobs.size(graph!.blobKey)).toBeNull();
    expect(await audited('sample_graph.delete')).toContain('tech');
  });

  it('refuses what is not a PNG or JPEG of at most 5 MB, and a title too long, storing nothing', async () => {
    const count = async () =>
      (
        await db()
          .select()
          .from(sampleGraphs)
          .where(and(eq(sampleGraphs.bucketId, rad)))
      ).length;
    const before = await count();
    expect((await upload('tech', rad, 'gif', Buffer.from('GIF89a-not-a-png-at-all-000000'))).statusCode).toBe(400);
    expect((await upload('tech', rad, 'text', Buffer.from('hello'), 'text/plain')).statusCode).toBe(415);
    expect((await upload('tech', rad, 'x'.repeat(65), pngHeader(10, 10))).statusCode).toBe(400);
    const big = Buffer.concat([pngHeader(10, 10), Buffer.alloc(5 * 1024 * 1024)]);
    expect((await upload('tech', rad, 'big', big)).statusCode).toBe(413);
    expect(await count()).toBe(before);
  });

  it('exports the marking constants of spec §9', () => {
    expect(MARK_CIRCLE_RADIUS).toBe(12);
    expect(MARK_FONT_SIZE).toBe(24);
    expect(markScale(400)).toBe(1);
    expect(markScale(800)).toBe(2);
  });
});
