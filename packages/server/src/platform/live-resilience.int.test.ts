import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CLOSE } from '@yyp/contracts';
import { startTestApp, type TestApp } from '../test/harness.js';
import { liveUrl, subscribedProbe, type LiveProbe } from './live.fixture.js';

/**
 * The live socket when things go wrong: the instance's LISTEN connection cut (as a PostgreSQL
 * restart does), a client that stopped reading, a client that stopped answering pings.
 */
let t: TestApp;
let url: string;
let doctor: string;
const probes: LiveProbe[] = [];

beforeAll(async () => {
  // Heartbeats far apart: a client that stops reading here is dropped by its buffer, not its pings.
  t = await startTestApp({ app: { liveTimings: { heartbeatMs: 60_000, maxBufferedBytes: 64 * 1024 } } });
  t.services.liveAccess.topicAuthorizer('test', async () => true);
  await t.services.live.ready();
  url = await liveUrl(t);
  doctor = await t.login('doctor');
});

afterAll(async () => {
  for (const p of probes) p.socket.terminate();
  await t?.close();
});

async function probe(options = {}) {
  const p = await subscribedProbe(url, doctor, ['test:r'], undefined, options);
  probes.push(p);
  return p;
}

describe('live resilience', () => {
  it('on PostgreSQL, listens again after its connection is cut and tells sockets to resync (PGlite: one process, nothing to cut)', async () => {
    if (t.db.kind !== 'postgres') {
      expect(t.services.live.kind).toBe('memory');
      return;
    }
    const p = await probe();
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: t.db.url });
    await admin.connect();
    try {
      const cut = await admin.query(
        `select pg_terminate_backend(pid) as cut from pg_stat_activity
         where datname = current_database() and query ilike 'listen yyp_live%'`,
      );
      expect(cut.rows).toEqual([{ cut: true }]);
    } finally {
      await admin.end();
    }
    await p.next((m) => m.type === 'resync', 5000);
    await t.services.live.publish('test:r', { after: 'cut' });
    const got = await p.next((m) => m.type === 'event', 5000);
    expect(got).toMatchObject({ event: { after: 'cut' } });
  });

  it('drops a client that stopped reading instead of buffering for it', async () => {
    const p = await probe();
    const tcp = (p.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    tcp.pause();
    const big = 'x'.repeat(7000);
    for (let i = 0; i < 1500 && p.socket.readyState === p.socket.OPEN; i++) {
      await t.services.live.publish('test:r', { i, big });
    }
    await new Promise((r) => setTimeout(r, 1500));
    const serverSockets = t.app.websocketServer.clients.size;
    tcp.resume();
    expect([LIVE_CLOSE.slowConsumer, 1006]).toContain(await p.closed);
    // the server let go of it (the other probes may still be connected)
    expect(serverSockets).toBeLessThan(probes.length);
  });

  it('cuts a client that no longer answers pings', async () => {
    const quick = await startTestApp({
      db: t.db,
      clock: t.clock,
      seed: false,
      app: { liveTimings: { heartbeatMs: 300 } },
    });
    try {
      quick.services.liveAccess.topicAuthorizer('test', async () => true);
      const answering = await subscribedProbe(await liveUrl(quick), doctor, ['test:r']);
      const silent = await subscribedProbe(await liveUrl(quick), doctor, ['test:r'], undefined, { autoPong: false });
      probes.push(answering, silent);
      expect(await silent.closed).toBe(1006);
      expect(answering.socket.readyState).toBe(answering.socket.OPEN);
    } finally {
      await quick.close();
    }
  });
});
