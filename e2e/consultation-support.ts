import { api, apiLogin, step, waitForZhangWeiCts } from './support.js';

/** What the consultation e2e files share: a scheduled demo consultation, and cancelling what they leave open. */

const API = '/yyp/api/v1';

async function json<T>(res: Promise<{ status: number; body: T }>, expected: number[], what: string): Promise<T> {
  const { status, body } = await res;
  if (!expected.includes(status)) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * A consultation of 仁和's radiology to XH-TELE with 孙专家 on 张伟's newest CT, scheduled now, made
 * through the API as people would: XH-TELE a consultation organization of 仁和 (the demo has it; a
 * repeat is harmless), the doctor's request, 孙专家's acceptance.
 */
export async function scheduledDemoConsultation(title: string, reason: string): Promise<string> {
  const [groupadmin, doctor, expert] = await Promise.all(
    ['groupadmin', 'doctor', 'expert'].map(async (u) => (await apiLogin(u)).accessToken),
  );
  step('XH-TELE is a consultation organization of 仁和');
  const experts = await json(
    api<{ bucketId: string }[] | { data: { bucketId: string }[] }>(
      `${API}/groups/demo-renhe/expert-buckets`,
      groupadmin!,
    ),
    [200],
    'expert buckets',
  );
  const tele = (Array.isArray(experts) ? experts : experts.data)[0]!.bucketId;
  await json(
    api(`${API}/groups/demo-renhe/consultation-targets`, groupadmin!, {
      method: 'POST',
      body: JSON.stringify({ bucketId: tele }),
    }),
    [200, 201, 204, 409],
    'consultation target',
  );
  step('the doctor requests it on 张伟 CT with 孙专家');
  const buckets = await json(
    api<{
      sources: { bucketId: string; name: string }[];
      targets: { bucketId: string; experts: { accountId: string; name: string }[] }[];
    }>(`${API}/consultations/buckets`, doctor!),
    [200],
    'consultation buckets',
  );
  const sun = buckets.targets.find((b) => b.bucketId === tele)!.experts.find((e) => e.name === '孙专家')!;
  const source = buckets.sources.find((b) => b.name === '放射科') ?? buckets.sources[0]!;
  const [ct] = (await waitForZhangWeiCts()).sort((a, b) => b.studyDate.localeCompare(a.studyDate));
  const created = await json(
    api<{ id: string; version: number }>(`${API}/consultations`, doctor!, {
      method: 'POST',
      body: JSON.stringify({
        sourceBucketId: source.bucketId,
        targetBucketId: tele,
        examId: ct!.id,
        title,
        patient: { name: '张伟', age: '', gender: '', tel: '', email: '', contactHospital: '' },
        scheduledAt: new Date().toISOString(),
        reason,
        experts: [sun.accountId],
      }),
    }),
    [201],
    'request',
  );
  step('孙专家 accepts: scheduled');
  await json(
    api(`${API}/consultations/${created.id}/status`, expert!, {
      method: 'POST',
      body: JSON.stringify({ status: 1, version: created.version }),
    }),
    [200],
    'schedule',
  );
  return created.id;
}

/**
 * Cancels the consultations a file opened (as the demo doctor, their requester), so none stays open
 * after it: an open consultation keeps its bound exam shared into the target organization's list.
 */
export async function cancelOpenConsultations(ids: string[], reason = 'e2e 结束'): Promise<void> {
  const doctor = (await apiLogin('doctor')).accessToken;
  for (const id of ids.filter(Boolean)) {
    const detail = await api<{ status: number; version: number }>(`${API}/consultations/${id}`, doctor);
    if (detail.status !== 200 || detail.body.status > 1) continue;
    await api(`${API}/consultations/${id}/cancel`, doctor, {
      method: 'POST',
      body: JSON.stringify({ reason, version: detail.body.version }),
    });
  }
}
