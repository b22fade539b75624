import { describe, expect, it } from 'vitest';
import { act, as, content, newExam, ok, radiology, t, tok, useReportsFixture } from './reports.fixture.js';

useReportsFixture();

describe('report extension fields', () => {
  it("checks the organization's report extension fields, and needs the required ones to submit", async () => {
    const cfg = await as('groupadmin').post(`buckets/${radiology}/extension-configs`, {
      name: '造影剂',
      data: { label: '造影剂', type: 'select', options: ['碘海醇', '无'], required: true, scope: 'report' },
    });
    expect(cfg.statusCode, cfg.body).toBe(201);
    const key = (cfg.json() as { id: string }).id;
    const id = await newExam();
    const wrong = await act('doctor', id, 'save', {
      version: 0,
      content: content('所见', '', { extensions: { [key]: '钆' } }),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ details: { extensions: { [key]: expect.any(String) } } });
    expect(
      (await act('doctor', id, 'save', { version: 0, content: content('所见', '', { extensions: { nope: 'x' } }) }))
        .statusCode,
    ).toBe(400);
    // A draft may leave it empty; submitting may not.
    await ok('doctor', id, 'save', { version: 0, content: content('所见', '结论') });
    const submit = await act('doctor', id, 'submit', { version: 1, content: content('所见', '结论') });
    expect(submit.json()).toMatchObject({ code: 'ValidationError', details: { required: [key] } });
    const done = await ok('doctor', id, 'submit', {
      version: 1,
      content: content('所见', '结论', { extensions: { [key]: '碘海醇' } }),
    });
    expect(done.status).toBe('final');
    // Report extensions are not exam extensions.
    const examEdit = await as('senior').post(`exams/${id}`, { extensions: { [key]: '碘海醇' } });
    expect(examEdit.statusCode).toBe(400);
    await as('groupadmin').del(`buckets/${radiology}/extension-configs/${key}`);
  });
});

describe('key images from the editor', () => {
  const png = (n: number) => {
    // A valid 1×1 PNG with a distinguishing comment chunk is not needed: the sniffer reads the signature.
    const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    return Buffer.concat([sig, Buffer.alloc(64, n)]);
  };
  it('adds local images, reorders and describes them, at most 6', async () => {
    const id = await newExam();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.call('POST', `reports/${id}/images?desc=${encodeURIComponent(`图${i}`)}`, {
        token: tok.doctor!,
        headers: { 'content-type': 'image/png' },
        body: png(i),
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push((res.json() as { id: string }).id);
    }
    const seventh = await t.call('POST', `reports/${id}/images`, {
      token: tok.doctor!,
      headers: { 'content-type': 'image/png' },
      body: png(7),
    });
    expect(seventh.json()).toMatchObject({ code: 'ReportImageLimit' });
    const reordered = await as('doctor').post(`reports/${id}/image-order`, { imageIds: [...ids].reverse() });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect((reordered.json() as { images: { id: string }[] }).images.map((i) => i.id)).toEqual([...ids].reverse());
    expect((await as('doctor').post(`reports/${id}/image-order`, { imageIds: ids.slice(1) })).statusCode).toBe(400);
    const patched = await t.call('PATCH', `reports/${id}/images/${ids[0]}`, {
      token: tok.doctor!,
      body: { desc: '右肺结节', isPrinted: false },
    });
    expect(patched.json()).toMatchObject({ desc: '右肺结节', isPrinted: false });
    // The technician cannot add images to a report.
    const tech = await t.call('POST', `reports/${id}/images`, {
      token: tok.tech!,
      headers: { 'content-type': 'image/png' },
      body: png(1),
    });
    expect(tech.statusCode).toBe(403);
  });
});

describe('sample graphs on a report', () => {
  it('places a sample graph with marks on the image, and keeps them there', async () => {
    const id = await newExam();
    // A 40×20 PNG header is all the sample-graph upload reads.
    const header = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
    header.writeUInt32BE(13, 8);
    header.write('IHDR', 12, 'latin1');
    header.writeUInt32BE(40, 16);
    header.writeUInt32BE(20, 20);
    header[24] = 8;
    header[25] = 6;
    const up = await t.call(
      'POST',
      `sample-graphs/new?bucketId=${radiology}&title=${encodeURIComponent('乳腺示意图')}`,
      {
        token: tok.tech!,
        headers: { 'content-type': 'image/png' },
        body: header,
      },
    );
    expect(up.statusCode, up.body).toBe(201);
    const graphId = (up.json() as { id: string }).id;
    const mark = { x: 10, y: 5, color: '#ff0000', label: '1' };
    const placed = await as('doctor').post(`reports/${id}/sample-graphs`, { sampleGraphId: graphId, points: [mark] });
    expect(placed.statusCode, placed.body).toBe(200);
    const graphs = (placed.json() as { graphs: { id: string; points: unknown[]; width: number }[] }).graphs;
    expect(graphs).toMatchObject([{ width: 40, points: [mark] }]);
    const outside = await t.call('PATCH', `reports/${id}/sample-graphs/${graphs[0]!.id}`, {
      token: tok.doctor!,
      body: { points: [{ ...mark, x: 41 }] },
    });
    expect(outside.statusCode).toBe(400);
    const moved = await t.call('PATCH', `reports/${id}/sample-graphs/${graphs[0]!.id}`, {
      token: tok.doctor!,
      body: { points: [mark, { ...mark, x: 30, label: '2' }], isPrinted: false },
    });
    expect(moved.json()).toMatchObject({ graphs: [{ isPrinted: false, points: [mark, { x: 30 }] }] });
    // Only those who may edit the report place graphs.
    expect((await as('tech').post(`reports/${id}/sample-graphs`, { sampleGraphId: graphId })).statusCode).toBe(403);
    const read = await as('senior').get(`reports/${id}/sample-graphs`);
    expect((read.json() as { graphs: unknown[] }).graphs).toHaveLength(1);
    const gone = await as('doctor').del(`reports/${id}/sample-graphs/${graphs[0]!.id}`);
    expect(gone.json()).toEqual({ graphs: [] });
  });
});
