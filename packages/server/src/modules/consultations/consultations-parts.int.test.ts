import type { ConsultationDetail, ConsultationListItem } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import {
  consultationAt,
  makeConsultationWorld,
  requestConsultation,
  type ConsultationWorld,
} from '../../test/factories-consultations.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { consultationRoomFacts } from './index.js';

/**
 * A consultation's parts and lists through the API (spec 000 §3–§5, spec 001 §7; issue 25): the
 * rating (once; a comment at or below the group's threshold), the visit record, members and their
 * candidates, traces, linked history (only completed ones) read through the link, past ones, the
 * lists with their filters, where the caller may request, and the group's targets and rating config.
 */
let t: TestApp;
let w: ConsultationWorld;
const db = () => t.db.database.db;
const as = (token: string) => t.as(token);
const json = (res: { json(): unknown }) => res.json() as ConsultationDetail;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeConsultationWorld(t);
});
afterAll(async () => {
  await t.close();
});

describe('rating (POST consultations/{id}/rating) and the rating config', () => {
  it('is given once by the requester of a completed consultation; the group may require a comment', async () => {
    const admin = as(w.clinicAdmin.token);
    const path = `groups/${w.clinic.org.groupId}/rating-config`;
    expect((await admin.get(path)).json()).toEqual({
      labels: ['', '', '', '', ''],
      commentRequiredAtOrBelow: 0,
      version: 0,
    });
    const config = { labels: ['差', '一般', '好', '很好', '极好'], commentRequiredAtOrBelow: 2 };
    expect((await as(w.clinic.doctor.token).put(path, { ...config, version: 0 })).statusCode).toBe(403);
    const saved = await admin.put(path, { ...config, version: 0 });
    expect(saved.json()).toEqual({ ...config, version: 1 });
    expect((await admin.put(path, { ...config, version: 0 })).json()).toMatchObject({ code: 'Conflict' });
    expect((await as(w.outsider.doctor.token).get(path)).statusCode).toBe(404);

    const open = await consultationAt(t, w, 'scheduled');
    const early = await as(w.clinic.doctor.token).post(`consultations/${open.id}/rating`, { score: 5 });
    expect(early.json()).toMatchObject({ code: 'ConsultationWrongStatus' });
    const c = await consultationAt(t, w, 'completed');
    const doctor = as(w.clinic.doctor.token);
    const noComment = await doctor.post(`consultations/${c.id}/rating`, { score: 2 });
    expect(noComment.statusCode).toBe(400);
    expect(noComment.json()).toMatchObject({ details: { field: 'comment' } });
    expect((await doctor.post(`consultations/${c.id}/rating`, { score: 6 })).statusCode).toBe(400);
    expect((await as(w.centre.expert.token).post(`consultations/${c.id}/rating`, { score: 5 })).statusCode).toBe(403);
    const rated = await doctor.post(`consultations/${c.id}/rating`, { score: 2, comment: '结论太简略' });
    expect(rated.statusCode).toBe(200);
    expect(json(rated)).toMatchObject({ rating: 2, ratingDetail: { score: 2, comment: '结论太简略' } });
    expect(json(rated).can).not.toContain('rate');
    const again = await doctor.post(`consultations/${c.id}/rating`, { score: 5 });
    expect(again.json()).toMatchObject({ code: 'RatingAlreadySubmitted' });
    expect(json(await doctor.get(`consultations/${c.id}`)).rating).toBe(2);
  });
});

describe('visit, members and traces', () => {
  it("the requester records the visit; the target's staff names experts and joiners of its own", async () => {
    const c = await requestConsultation(t, w);
    const visit = { hospital: '县医院', time: '2026-11-20T02:00:00.000Z', department: '呼吸科', reason: '咳嗽' };
    const saved = await as(w.clinic.doctor.token).put(`consultations/${c.id}/visit`, visit);
    expect(json(saved).visit).toEqual(visit);
    expect((await as(w.centre.chief.token).put(`consultations/${c.id}/visit`, visit)).statusCode).toBe(403);

    const chief = as(w.centre.chief.token);
    const candidates = await chief.get(`consultations/${c.id}/members/candidates`);
    const byId = new Map(
      (candidates.json() as { data: { accountId: string; canWrite: boolean }[] }).data.map((d) => [d.accountId, d]),
    );
    expect(byId.get(w.centre.expert.accountId)?.canWrite).toBe(true);
    expect(byId.get(w.centre.junior.accountId)?.canWrite).toBe(false);
    expect(byId.has(w.clinic.doctor.accountId)).toBe(false);
    expect((await as(w.clinic.doctor.token).get(`consultations/${c.id}/members/candidates`)).statusCode).toBe(403);

    const v = json(saved).version;
    const stranger = await chief.put(`consultations/${c.id}/members`, {
      experts: [w.clinic.doctor.accountId],
      version: v,
    });
    expect(stranger.statusCode).toBe(400);
    const both = await chief.put(`consultations/${c.id}/members`, {
      experts: [w.centre.expert.accountId],
      joiners: [w.centre.expert.accountId],
      version: v,
    });
    expect(both.statusCode).toBe(400);
    const set = await chief.put(`consultations/${c.id}/members`, {
      experts: [w.centre.expert.accountId],
      joiners: [w.centre.junior.accountId],
      version: v,
    });
    expect(json(set).members.map((m) => [m.name, m.role])).toEqual([
      [w.centre.expert.name, 'expert'],
      [w.centre.junior.name, 'joiner'],
    ]);
    expect(json(await as(w.centre.junior.token).get(`consultations/${c.id}`)).roles).toEqual(['joiner']);
    expect((await chief.put(`consultations/${c.id}/members`, { experts: [], version: v })).statusCode).toBe(409);

    const traces = await as(w.clinic.doctor.token).get(`consultations/${c.id}/traces`);
    const rows = (traces.json() as { data: { action: string; accountName: string }[] }).data;
    expect(rows.map((r) => r.action)).toEqual(['create', 'visit', 'setMembers']);
    expect(rows.map((r) => r.accountName)).toEqual([w.clinic.doctor.name, w.clinic.doctor.name, w.centre.chief.name]);
  });
});

describe('linked history consultations', () => {
  it('links only a completed one of the group, not itself, and reads it through the link', async () => {
    const old = await consultationAt(t, w, 'completed', { patient: { name: '李四' } });
    const other = await consultationAt(t, w, 'completed', { patient: { name: '张三' } });
    const pendingOne = await requestConsultation(t, w);
    const c = await requestConsultation(t, w, { patient: { name: '张三' } });
    const doctor = as(w.clinic.doctor.token);
    const past = await doctor.get(`consultations/past?consultationId=${c.id}`);
    const ids = (past.json() as { data: ConsultationListItem[] }).data.map((d) => d.id);
    expect(ids[0]).toBe(other.id);
    expect(ids).toContain(old.id);
    expect(ids).not.toContain(pendingOne.id);
    expect(ids).not.toContain(c.id);

    const self = await doctor.post(`consultations/${c.id}/links`, { linkedId: c.id });
    expect(self.json()).toMatchObject({ code: 'ConsultationNotLinkable' });
    const unfinished = await doctor.post(`consultations/${c.id}/links`, { linkedId: pendingOne.id });
    expect(unfinished.json()).toMatchObject({ code: 'ConsultationNotLinkable' });
    const outsiders = await as(w.outsider.doctor.token).post(`consultations/${c.id}/links`, { linkedId: old.id });
    expect(outsiders.statusCode).toBe(404);
    const linked = await doctor.post(`consultations/${c.id}/links`, { linkedId: other.id });
    expect(linked.statusCode).toBe(201);
    const link = json(linked).links[0]!;
    expect(link).toMatchObject({ linkedId: other.id, status: 2, result: '考虑良性结节，建议3个月后复查' });
    expect((await doctor.post(`consultations/${c.id}/links`, { linkedId: other.id })).statusCode).toBe(409);
    const after = await doctor.get(`consultations/past?consultationId=${c.id}`);
    expect((after.json() as { data: ConsultationListItem[] }).data.map((d) => d.id)).not.toContain(other.id);

    // The expert named on c reads the linked one through the link, audited.
    const related = await as(w.centre.expert.token).get(`consultations/${c.id}/related/${link.id}`);
    expect(related.statusCode).toBe(200);
    expect(json(related)).toMatchObject({ id: other.id, result: '考虑良性结节，建议3个月后复查' });
    const audits = await db().select().from(auditLogs).where(eq(auditLogs.action, 'consultation.read_related'));
    expect(audits.some((a) => a.targetId === other.id && a.actorId === w.centre.expert.accountId)).toBe(true);
    expect((await as(w.outsider.doctor.token).get(`consultations/${c.id}/related/${link.id}`)).statusCode).toBe(404);
    expect((await doctor.get(`consultations/${c.id}/related/no-such-link`)).statusCode).toBe(404);

    const removed = await doctor.del(`consultations/${c.id}/links/${link.id}`);
    expect(json(removed).links).toEqual([]);
    expect((await doctor.del(`consultations/${c.id}/links/${link.id}`)).statusCode).toBe(404);
  });
});

describe('lists (query, query/count, query-page)', () => {
  it("shows each side its consultations with the filters, newest first, and nobody else's", async () => {
    const a = await requestConsultation(t, w, { title: '甲状腺结节', patient: { name: '赵六' } });
    t.clock.advance(60_000);
    const b = await requestConsultation(t, w, {
      title: '肝占位',
      patient: { name: '钱七' },
      scheduledAt: '2026-12-01T16:30:00.000Z',
    });
    const page = async (token: string, filter: Record<string, unknown>) => {
      const res = await as(token).post('consultations/query-page', { filter });
      expect(res.statusCode).toBe(200);
      return res.json() as { data: ConsultationListItem[]; count: number };
    };
    const mine = await page(w.clinic.doctor.token, {});
    expect(mine.data[0]!.id).toBe(b.id);
    expect(mine.data.map((d) => d.id)).toContain(a.id);
    expect(mine.count).toBe(mine.data.length);
    expect((await page(w.clinic.doctor.token, { keyword: '钱七' })).data.map((d) => d.id)).toEqual([b.id]);
    expect((await page(w.clinic.doctor.token, { keyword: '甲状腺' })).data.map((d) => d.id)).toEqual([a.id]);
    // 16:30 UTC on 1 December is 00:30 on 2 December in China.
    const day = (await page(w.clinic.doctor.token, { from: '2026-12-02', to: '2026-12-02' })).data;
    expect(day.map((d) => d.id)).toEqual([b.id]);
    expect((await page(w.clinic.doctor.token, { from: '2026-12-01', to: '2026-12-01' })).data).toEqual([]);
    expect((await page(w.centre.chief.token, { keyword: '钱七' })).data.map((d) => d.id)).toEqual([b.id]);
    expect((await page(w.centre.expert.token, { keyword: '钱七', mine: true })).data.map((d) => d.id)).toEqual([b.id]);
    expect((await page(w.outsider.doctor.token, {})).count).toBe(0);
    expect((await page(w.clinic.nurse.token, {})).count).toBe(0);

    const poll = await as(w.centre.chief.token).post('consultations/query', {
      limit: 5,
      skip: 0,
      filter: { status: { equal: 0 } },
    });
    const polled = (poll.json() as { data: ConsultationListItem[] }).data;
    expect(polled.length).toBeLessThanOrEqual(5);
    expect(polled.every((d) => d.status === 0)).toBe(true);
    expect(polled[0]!.id).toBe(b.id);
    const count = await as(w.clinic.doctor.token).post('consultations/query/count', { filter: { keyword: '钱七' } });
    expect(count.json()).toEqual({ count: 1 });
    const bad = await as(w.clinic.doctor.token).post('consultations/query-page', {
      filter: { from: '2026-12-03', to: '2026-12-01' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('where to request (buckets) and the group targets', () => {
  it('lists the sources and targets with their experts; targets are changed by group admins only', async () => {
    const buckets = await as(w.clinic.doctor.token).get('consultations/buckets');
    expect(buckets.json()).toMatchObject({
      sources: [{ bucketId: w.clinic.org.bucketId, name: '县医院放射科', groupId: w.clinic.org.groupId }],
      targets: [{ bucketId: w.centre.org.bucketId, isDefault: false }],
    });
    const experts = (buckets.json() as { targets: { experts: { accountId: string }[] }[] }).targets[0]!.experts;
    expect(experts.map((e) => e.accountId)).toContain(w.centre.expert.accountId);
    // The centre's group names no consultation targets: its chief may request, of nobody.
    expect((await as(w.centre.chief.token).get('consultations/buckets')).json()).toMatchObject({
      sources: [{ bucketId: w.centre.org.bucketId }],
      targets: [],
    });
    expect((await as(w.clinic.nurse.token).get('consultations/buckets')).json()).toEqual({ sources: [], targets: [] });

    const path = `groups/${w.clinic.org.groupId}/consultation-targets`;
    const listed = await as(w.clinic.doctor.token).get(path);
    expect(listed.json()).toMatchObject({ data: [{ bucketId: w.centre.org.bucketId, name: '省影像会诊中心' }] });
    expect((await as(w.clinic.doctor.token).post(path, { bucketId: w.outsider.org.bucketId })).statusCode).toBe(403);
    expect((await as(w.outsider.doctor.token).get(path)).statusCode).toBe(404);
    const admin = as(w.clinicAdmin.token);
    const added = await admin.post(path, { bucketId: w.outsider.org.bucketId });
    expect((added.json() as { data: unknown[] }).data).toHaveLength(2);
    expect((await admin.post(path, { bucketId: 'no-such-org' })).statusCode).toBe(404);
    const removed = await admin.del(`${path}/${w.outsider.org.bucketId}`);
    expect((removed.json() as { data: unknown[] }).data).toHaveLength(1);
    expect((await admin.del(`${path}/${w.outsider.org.bucketId}`)).statusCode).toBe(404);
  });
});

describe('consultationRoomFacts (for the video module)', () => {
  it('names every side a participant, anyone else not, and nothing for no consultation', async () => {
    const c = await consultationAt(t, w, 'scheduled');
    const facts = (accountId: string) => consultationRoomFacts(db(), c.id, accountId);
    for (const who of [w.clinic.doctor, w.centre.expert, w.centre.chief]) {
      expect(await facts(who.accountId)).toMatchObject({ participant: true, status: 1, name: c.title });
    }
    expect((await facts(w.centre.junior.accountId))?.participant).toBe(false);
    expect((await facts(w.outsider.doctor.accountId))?.participant).toBe(false);
    expect((await facts(w.clinic.nurse.accountId))?.participant).toBe(false);
    expect(await consultationRoomFacts(db(), 'no-such-consultation', w.clinic.doctor.accountId)).toBeNull();
  });
});
