import { VIEWER_TOKEN_HEADER, type Report } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { orders } from '../../db/schema.js';
import { makeExam, makeMember } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { recordOrderPaid } from '../orders/index.js';
import { applyOk, makeOrdersWorld, type OrdersWorld } from '../orders/orders.fixture.js';

/**
 * The experts' report published back to the requesting organization is read-only there in every
 * part (issue 24): its key images (added from the editor or the viewer, described, ordered,
 * removed), its sample graphs, new critical values and co-written exams answer 409 ReportNotEditable (status
 * readOnly) and change nothing; the same writes work at the expert organization on its copy. The
 * clinic's own follow-up stays allowed: printing, and the read-back and handling of a critical
 * value recorded before the report came back.
 */
let t: TestApp;
let w: OrdersWorld;
const db = () => t.db.database.db;

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 7)]);
/** A 40×20 PNG header: all the sample-graph upload reads. */
function pngHeader(): Buffer {
  const header = Buffer.alloc(33);
  PNG.copy(header, 0, 0, 8);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(40, 16);
  header.writeUInt32BE(20, 20);
  header[24] = 8;
  header[25] = 6;
  return header;
}

const addImage = (token: string, examId: string) =>
  t.call('POST', `reports/${examId}/images?desc=${encodeURIComponent('结节')}`, {
    token,
    headers: { 'content-type': 'image/png' },
    body: PNG,
  });

async function sampleGraph(token: string, bucketId: string): Promise<string> {
  const up = await t.call('POST', `sample-graphs/new?bucketId=${bucketId}&title=${encodeURIComponent('示意图')}`, {
    token,
    headers: { 'content-type': 'image/png' },
    body: pngHeader(),
  });
  expect(up.statusCode, up.body).toBe(201);
  return (up.json() as { id: string }).id;
}

async function viewerPath(token: string, examId: string): Promise<string> {
  const res = await t.call('POST', `viewers/${examId}/path`, { token, body: { reportId: examId } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { openpath: string }).openpath;
}
const asViewer = (openpath: string, method: 'GET' | 'POST', url: string, body?: Buffer) =>
  t.call(method, url, {
    headers: { [VIEWER_TOKEN_HEADER]: openpath, ...(body ? { 'content-type': 'image/png' } : {}) },
    ...(body ? { body } : {}),
  });

type Part = { id: string; [field: string]: unknown };
/** The report's images, placed sample graphs and critical values, without their expiring links. */
async function parts(token: string, examId: string) {
  const as = t.as(token);
  const images = (await as.get(`reports/${examId}/images`)).json() as { images: Part[] };
  const graphs = (await as.get(`reports/${examId}/sample-graphs`)).json() as { graphs: Part[] };
  const criticals = (await as.get(`reports/${examId}/critical-values`)).json() as { items: Part[] };
  const plain = (p: Part) => ({ ...p, url: undefined, imageUrl: undefined });
  return { images: images.images.map(plain), graphs: graphs.graphs.map(plain), criticals: criticals.items };
}

/**
 * Each write to a report's parts, with what it needs: an image and a placed sample graph of the
 * report, and a sample graph of the organization's library.
 */
function writes(examId: string, imageId: string, placementId: string, graphId: string) {
  return [
    [
      'PATCH image',
      (token: string) => t.call('PATCH', `reports/${examId}/images/${imageId}`, { token, body: { desc: '改' } }),
    ],
    ['POST image-order', (token: string) => t.as(token).post(`reports/${examId}/image-order`, { imageIds: [imageId] })],
    [
      'POST sample-graphs',
      (token: string) => t.as(token).post(`reports/${examId}/sample-graphs`, { sampleGraphId: graphId }),
    ],
    [
      'PATCH sample-graph',
      (token: string) =>
        t.call('PATCH', `reports/${examId}/sample-graphs/${placementId}`, { token, body: { isPrinted: false } }),
    ],
    [
      'POST critical-value',
      (token: string) => t.as(token).post(`reports/${examId}/critical-value`, { text: '主动脉夹层' }),
    ],
    ['DELETE sample-graph', (token: string) => t.as(token).del(`reports/${examId}/sample-graphs/${placementId}`)],
    ['DELETE image', (token: string) => t.as(token).del(`reports/${examId}/images/${imageId}`)],
    ['POST images', (token: string) => addImage(token, examId)],
  ] as const;
}

async function report(token: string, examId: string): Promise<Report> {
  const res = await t.as(token).get(`reports/${examId}/detail`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Report;
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeOrdersWorld(t);
});
afterAll(async () => {
  await t.close();
});

describe('a report published back by the experts', () => {
  it('refuses every write to its images, sample graphs and critical values at the requester, not at the experts', async () => {
    const patient = { patientName: 'Qian^Du', patientId: 'QD-0001' };
    const { examId } = await makeExam(t, w.clinic.org.bucketId, patient);
    // another exam of the patient, which the clinic could otherwise report together with it
    const { examId: siblingId } = await makeExam(t, w.clinic.org.bucketId, patient);
    const doctor = w.clinic.doctor.token;
    // Before the order, the clinic put a key image and a sample graph on its report and recorded a critical value.
    const clinicImage = await addImage(doctor, examId);
    expect(clinicImage.statusCode, clinicImage.body).toBe(201);
    const clinicGraph = await sampleGraph(w.clinic.tech.token, w.clinic.org.bucketId);
    const placed = await t.as(doctor).post(`reports/${examId}/sample-graphs`, { sampleGraphId: clinicGraph });
    expect(placed.statusCode, placed.body).toBe(200);
    const critical = await t.as(doctor).post(`reports/${examId}/critical-value`, { text: '气胸' });
    expect(critical.statusCode, critical.body).toBe(201);
    const before = await parts(doctor, examId);

    const order = await applyOk(t, w, examId);
    await recordOrderPaid(db(), order.id, { channel: 'weixin', paidFen: order.priceFen, paidAt: t.clock.now() });
    const [row] = await db().select().from(orders).where(eq(orders.id, order.id));
    const copyId = row!.targetExamId!;

    // At the experts, on their copy, the same writes work while their doctor writes it.
    const teledoctor = w.experts.teledoctor.token;
    expect((await t.as(teledoctor).post(`reports/${copyId}/lock`)).statusCode).toBe(200);
    const theirImage = await addImage(teledoctor, copyId);
    expect(theirImage.statusCode, theirImage.body).toBe(201);
    const keeper = await makeMember(t, w.experts.org.bucketId, { actions: ['exam_get', 'manage_sample_graph'] });
    const theirGraph = await sampleGraph(keeper.token, w.experts.org.bucketId);
    const theirPlaced = await t.as(teledoctor).post(`reports/${copyId}/sample-graphs`, { sampleGraphId: theirGraph });
    expect(theirPlaced.statusCode, theirPlaced.body).toBe(200);
    const theirPlacement = (theirPlaced.json() as { graphs: { id: string }[] }).graphs[0]!.id;
    const theirImageId = (theirImage.json() as { id: string }).id;
    for (const [name, write] of writes(copyId, theirImageId, theirPlacement, theirGraph)) {
      const res = await write(teledoctor);
      expect(res.statusCode, `${name} at the experts: ${res.body}`).toBeLessThan(300);
    }
    const viewer = await viewerPath(teledoctor, copyId);
    expect((await asViewer(viewer, 'GET', 'viewer/context')).json()).toMatchObject({ canCapture: true });
    expect((await asViewer(viewer, 'POST', 'viewer/key-images', PNG)).statusCode).toBe(201);

    // The experts report and approve: the report goes back to the clinic's exam.
    const draft = await report(teledoctor, copyId);
    const content = { ...draft.content, findings: '右肺上叶小结节。', conclusion: '随访' };
    const submitted = await t.as(teledoctor).post(`reports/${copyId}/submit`, { version: draft.version, content });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const approved = await t
      .as(w.experts.expert.token)
      .post(`reports/${copyId}/approve`, { version: (submitted.json() as Report).version, content });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await report(doctor, examId)).toMatchObject({ sourceBucketId: w.experts.org.bucketId, transitions: [] });

    // At the clinic, every write to the report's parts is refused and changes nothing.
    const imageId = before.images[0]!.id;
    for (const token of [doctor, w.clinic.senior.token]) {
      for (const [name, write] of writes(examId, imageId, before.graphs[0]!.id, clinicGraph)) {
        const res = await write(token);
        expect(res.statusCode, `${name}: ${res.body}`).toBe(409);
        expect(res.json()).toMatchObject({ code: 'ReportNotEditable', details: { status: 'readOnly' } });
      }
    }
    // Nor is it reported together with another exam of the patient, either way round.
    for (const [primary, other] of [
      [examId, siblingId],
      [siblingId, examId],
    ]) {
      const combined = await t.as(doctor).post(`reports/${primary}/co-exams/add`, { examIds: [other] });
      expect(combined.statusCode, combined.body).toBe(409);
      expect(combined.json()).toMatchObject({ code: 'ReportNotEditable', details: { status: 'readOnly' } });
    }
    expect((await report(doctor, examId)).examIds).toEqual([examId]);
    const clinicViewer = await viewerPath(w.clinic.senior.token, examId);
    expect((await asViewer(clinicViewer, 'GET', 'viewer/context')).json()).toMatchObject({ canCapture: false });
    const captured = await asViewer(clinicViewer, 'POST', 'viewer/key-images', PNG);
    expect(captured.statusCode, captured.body).toBe(409);
    expect(captured.json()).toMatchObject({ code: 'ReportNotEditable' });
    expect(await parts(doctor, examId)).toEqual(before);
    const list = (await t.as(doctor).get(`reports/${examId}/critical-values`)).json() as { canReport: boolean };
    expect(list.canReport).toBe(false);

    // The clinic's own follow-up stays: the read-back and handling of its critical value, and printing.
    const criticalId = before.criticals[0]!.id;
    const received = await t.as(doctor).post(`reports/${examId}/critical-values/${criticalId}/receive`, {
      receiver: '李护士',
      confirmor: '王医生',
      readbackOpinion: '已复述',
    });
    expect(received.statusCode, received.body).toBe(200);
    const handled = await t.as(doctor).post(`reports/${examId}/critical-values/${criticalId}/handle`, {});
    expect(handled.json()).toMatchObject({ status: 'handled' });
    const printed = await t.as(w.clinic.senior.token).post(`reports/${examId}/update-print-time`);
    expect(printed.statusCode, printed.body).toBe(200);
    expect((await report(doctor, examId)).status).toBe('printed');
  });
});
