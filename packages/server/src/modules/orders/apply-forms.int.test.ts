import type { ApplyForm, OrderDetail, UploadCode, UploadPolicy } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordOrderPaid } from './index.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { applyOk, makeOrdersWorld, newExam, type OrdersWorld } from './orders.fixture.js';

/**
 * An order's apply forms (spec 001 §7 orders/{id}/upload-applyforms, applyforms/delete,
 * upload-applyforms-by-code, orders/{id}/applyforms; spec 000 §6 upload_apply_forms): uploaded with
 * the caller's forms policy or the exam's form code, read by both sides of the order.
 */
const PDF = Buffer.from('%PDF-1.7\n% referral form\n');
let t: TestApp;
let w: OrdersWorld;
let orderId: string;
let examId: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeOrdersWorld(t);
  examId = await newExam(t, w);
  orderId = (await applyOk(t, w, examId)).id;
});
afterAll(async () => {
  await t.close();
});

async function uploaded(token: string): Promise<string> {
  const res = await t.as(token).get(`policies/forms?contentType=application/pdf&size=${PDF.length}`);
  expect(res.statusCode, res.body).toBe(200);
  const p = res.json() as UploadPolicy;
  const sent = await t.app.inject({ method: 'PUT', url: p.upload.url, headers: p.upload.headers, payload: PDF });
  expect(sent.statusCode, sent.body).toBe(204);
  return p.key;
}

describe('apply forms', () => {
  let first: ApplyForm;
  let firstKey: string;

  it('are recorded from the caller’s own forms upload, once per key, by upload_apply_forms holders', async () => {
    const key = await uploaded(w.clinic.doctor.token);
    firstKey = key;
    const res = await t
      .as(w.clinic.doctor.token)
      .post(`orders/${orderId}/upload-applyforms`, { key, name: '申请单.pdf' });
    expect(res.statusCode, res.body).toBe(200);
    const forms = res.json() as ApplyForm[];
    expect(forms).toHaveLength(1);
    first = forms[0]!;
    expect(first).toMatchObject({ orderId, fileName: '申请单.pdf', contentType: 'application/pdf', size: PDF.length });
    const again = await t.as(w.clinic.doctor.token).post(`orders/${orderId}/upload-applyforms`, { key, name: 'x.pdf' });
    expect(again.json() as ApplyForm[]).toHaveLength(1);
    // Without upload_apply_forms (the technician), or someone else's upload: refused.
    const techKey = await uploaded(w.clinic.tech.token);
    expect(
      (await t.as(w.clinic.tech.token).post(`orders/${orderId}/upload-applyforms`, { key: techKey, name: 'a.pdf' }))
        .statusCode,
    ).toBe(403);
    const notMine = await t
      .as(w.clinic.doctor.token)
      .post(`orders/${orderId}/upload-applyforms`, { key: techKey, name: 'a.pdf' });
    expect(notMine.statusCode).toBe(400);
    const stranger = await t
      .as(w.experts.teleadmin.token)
      .post(`orders/${orderId}/upload-applyforms`, { key: techKey, name: 'a.pdf' });
    expect(stranger.statusCode).toBe(404);
  });

  it('are read by the requester, by the experts once the order reached them, and in orders/detail', async () => {
    const mine = await t.as(w.clinic.tech.token).get(`orders/${orderId}/applyforms`);
    expect((mine.json() as ApplyForm[]).map((f) => f.id)).toEqual([first.id]);
    expect((await t.as(w.experts.teledoctor.token).get(`orders/${orderId}/applyforms`)).statusCode).toBe(404);
    await recordOrderPaid(t.db.database.db, orderId, { channel: 'weixin', paidFen: 12_000, paidAt: t.clock.now() });
    const theirs = await t.as(w.experts.teledoctor.token).get(`orders/${orderId}/applyforms`);
    expect((theirs.json() as ApplyForm[]).map((f) => f.fileName)).toEqual(['申请单.pdf']);
    const detail = (await t.as(w.clinic.doctor.token).get(`orders/detail?examId=${examId}`)).json() as OrderDetail;
    expect(detail.applyForms.map((f) => f.id)).toEqual([first.id]);
  });

  it("come through the exam's form code too (public), onto its live order only", async () => {
    const code = (
      await t.as(w.clinic.doctor.token).post(`exams/${examId}/attachment-code`, { kind: 'form' })
    ).json() as UploadCode;
    const q = new URLSearchParams({ code: code.code, size: String(PDF.length), contentType: 'application/pdf' });
    const policy = (await t.call('GET', `service-attachment/policies?${q}`)).json() as UploadPolicy;
    const sent = await t.app.inject({
      method: 'PUT',
      url: policy.upload.url,
      headers: policy.upload.headers,
      payload: PDF,
    });
    expect(sent.statusCode).toBe(204);
    const res = await t.call('POST', 'orders/upload-applyforms-by-code', {
      body: { code: code.code, key: policy.key, fileName: '外院申请单.pdf' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ orderId, fileName: '外院申请单.pdf', url: null });
    const bad = await t.call('POST', 'orders/upload-applyforms-by-code', {
      body: { code: 'x'.repeat(32), key: policy.key, fileName: 'a.pdf' },
    });
    expect(bad.statusCode).toBe(403);
    expect(bad.json()).toMatchObject({ code: 'LinkInvalid' });
    const listed = await t.as(w.clinic.doctor.token).get(`orders/${orderId}/applyforms`);
    expect((listed.json() as ApplyForm[]).map((f) => f.fileName).sort()).toEqual(
      ['申请单.pdf', '外院申请单.pdf'].sort(),
    );
  });

  it('are deleted by upload_apply_forms holders of the requesting organization', async () => {
    const byTech = await t.as(w.clinic.tech.token).post(`orders/${orderId}/applyforms/delete`, { ids: [first.id] });
    expect(byTech.statusCode).toBe(403);
    const byExpert = await t
      .as(w.experts.teledoctor.token)
      .post(`orders/${orderId}/applyforms/delete`, { ids: [first.id] });
    expect(byExpert.statusCode).toBe(404);
    expect(await t.blobs.size(firstKey)).toBe(PDF.length);
    const res = await t.as(w.clinic.doctor.token).post(`orders/${orderId}/applyforms/delete`, { ids: [first.id] });
    expect((res.json() as ApplyForm[]).map((f) => f.fileName)).toEqual(['外院申请单.pdf']);
    // the deleted form's file goes with it
    expect(await t.blobs.size(firstKey)).toBeNull();
  });
});
