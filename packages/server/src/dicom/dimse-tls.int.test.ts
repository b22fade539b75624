import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, exams } from '../db/schema.js';
import { startTestDimse } from '../test/dimse.js';
import { makeModality, makeOrganization } from '../test/factories.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { generateStudy, writeStudy } from './testdata/generate.js';

/** DICOM TLS (PS3.15 B.1) with DCMTK's TLS options as the peer: certificates made with openssl for the test. */
const run = promisify(execFile);
let t: TestApp;
let dir: string;
let bucketId: string;
let open: { close(): void; port: number };
let strict: { close(): void; port: number };
const AE = 'CT_TLS';

async function openssl(...args: string[]) {
  await run('openssl', args, { cwd: dir });
}

/** A key and a certificate for `cn`, signed by the test CA. */
async function signed(name: string, cn: string, ext?: string) {
  await openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-subj',
    `/CN=${cn}`,
    '-out',
    `${name}.csr`,
  );
  const extArgs = ext ? ['-extfile', `${name}.ext`] : [];
  if (ext) fs.writeFileSync(path.join(dir, `${name}.ext`), ext);
  await openssl(
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '30',
    '-out',
    `${name}.pem`,
    ...extArgs,
  );
}

const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-tls-'));
  await openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-subj',
    '/CN=yyp test CA',
    '-days',
    '30',
    '-out',
    'ca.pem',
  );
  await signed('server', 'localhost', 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await signed('client', AE);
  await signed('stranger', 'SOMEONE_ELSE');
  t = await startTestApp({ seed: false });
  ({ bucketId } = await makeOrganization(t));
  await makeModality(t, bucketId, { aeTitle: AE });
  const secure = { key: fs.readFileSync(file('server.key')), cert: fs.readFileSync(file('server.pem')) };
  open = await startTestDimse(t, { tls: secure });
  strict = await startTestDimse(t, {
    tls: { ...secure, ca: fs.readFileSync(file('ca.pem')), requireClientCert: true },
  });
});
afterAll(async () => {
  open.close();
  strict.close();
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** storescu over TLS with `tls` (the certificate options), as AE; whether it stored. */
async function storescu(port: number, tls: string[], files: string[]): Promise<boolean> {
  try {
    await run('storescu', [
      ...tls,
      '+cf',
      file('ca.pem'),
      '-aet',
      AE,
      '-aec',
      'YYP',
      '127.0.0.1',
      String(port),
      ...files,
    ]);
    return true;
  } catch {
    return false;
  }
}

const stored = async (studyUid: string) =>
  (
    await t.db.database.db
      .select()
      .from(exams)
      .where(and(eq(exams.bucketId, bucketId), eq(exams.storeUid, studyUid)))
  ).length;

describe('DICOM over TLS', () => {
  it('stores from storescu +tls, and a plain TCP peer gets no association', async () => {
    const study = generateStudy({ modality: 'CT', instancesPerSeries: 2, rows: 32, columns: 32 });
    const files = await writeStudy(path.join(dir, 'a'), study);
    expect(await storescu(open.port, ['+tls', file('client.key'), file('client.pem'), '-pw'], files)).toBe(true);
    expect(await stored(study.studyInstanceUid)).toBe(1);
    const plain = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 32, columns: 32 });
    const plainFiles = await writeStudy(path.join(dir, 'b'), plain);
    await expect(
      run('storescu', ['-to', '5', '-aet', AE, '-aec', 'YYP', '127.0.0.1', String(open.port), ...plainFiles]),
    ).rejects.toThrow();
    expect(await stored(plain.studyInstanceUid)).toBe(0);
  });

  it('requires a client certificate of the CA naming the calling AE title when configured', async () => {
    const study = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 32, columns: 32 });
    const files = await writeStudy(path.join(dir, 'c'), study);
    // No certificate (anonymous TLS) and a certificate for another AE title are both refused.
    expect(await storescu(strict.port, ['+tla'], files)).toBe(false);
    expect(await storescu(strict.port, ['+tls', file('stranger.key'), file('stranger.pem'), '-pw'], files)).toBe(false);
    expect(await stored(study.studyInstanceUid)).toBe(0);
    // The refusal's audit row is written beside the answer: wait for it.
    await expect
      .poll(async () => {
        const refusals = await t.db.database.db
          .select()
          .from(auditLogs)
          .where(eq(auditLogs.action, 'dicom.association.refused'));
        return refusals.some((r) => (r.details as { callingAe?: string }).callingAe === AE);
      })
      .toBe(true);
    expect(await storescu(strict.port, ['+tls', file('client.key'), file('client.pem'), '-pw'], files)).toBe(true);
    expect(await stored(study.studyInstanceUid)).toBe(1);
  });
});
