import { describe, expect, it } from 'vitest';
import type { AppError } from '../../platform/errors.js';
import { Signer } from '../../platform/signed.js';
import { ViewingService } from './viewing.service.js';

const signer = new Signer(new TextEncoder().encode('unit-secret-unit-secret-unit-secret'));
const now = new Date('2026-11-24T08:00:00Z');
const at = (s: number) => new Date(now.getTime() + s * 1000);
// verify() reads only the signer and the clock: no database is needed.
const service = (clock: Date) =>
  new ViewingService(null as never, null as never, { now: () => clock }, signer, null as never, null as never);
const payload = { e: 'exam-1', b: 'bucket-1', s: '1.2.3', u: 'acc-1', r: 'exam-1' };
const code = (fn: () => unknown) => {
  try {
    fn();
    return 'none';
  } catch (err) {
    return (err as AppError).code;
  }
};

describe('viewer path verification', () => {
  it('grants a viewer path and a share path until they expire', () => {
    const viewer = signer.sign('viewer', payload, at(3600)).token;
    expect(service(now).verify(viewer)).toEqual({
      kind: 'viewer',
      examId: 'exam-1',
      bucketId: 'bucket-1',
      studyUid: '1.2.3',
      accountId: 'acc-1',
      reportId: 'exam-1',
      expires: Math.floor(at(3600).getTime() / 1000),
    });
    const share = signer.sign('share', { ...payload, r: null }, at(60)).token;
    expect(service(at(59)).verify(share)).toMatchObject({ kind: 'share', reportId: null });
    expect(code(() => service(at(60)).verify(share))).toBe('LinkInvalid');
    expect(code(() => service(at(3600)).verify(viewer))).toBe('LinkInvalid');
  });

  it('refuses no path, a forged or truncated one, another purpose and an incomplete payload', () => {
    expect(code(() => service(now).verify(undefined))).toBe('Unauthenticated');
    const token = signer.sign('viewer', payload, at(60)).token;
    const [body, mac] = token.split('.');
    const other = Buffer.from(JSON.stringify({ ...payload, e: 'exam-2', p: 'viewer', x: 9e9 })).toString('base64url');
    for (const bad of [`${other}.${mac}`, `${body}.${mac!.slice(0, -2)}AA`, body!, 'x.y', '']) {
      expect(code(() => service(now).verify(bad || 'a.b'))).toBe('LinkInvalid');
    }
    for (const purpose of ['download', 'blob-get', 'blob-put', 'ai-callback']) {
      expect(code(() => service(now).verify(signer.sign(purpose, payload, at(60)).token))).toBe('LinkInvalid');
    }
    const incomplete = signer.sign('viewer', { e: 'exam-1', s: '1.2.3' }, at(60)).token;
    expect(code(() => service(now).verify(incomplete))).toBe('LinkInvalid');
  });
});
