import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a merchant's notify_url received: the raw body and headers, as a route would see them. */
export interface Received {
  path: string;
  headers: Record<string, string | undefined>;
  body: string;
}

/** A notify_url on 127.0.0.1 for tests: records every post and answers the next status of `statuses` (then 200). */
export async function startReceiver(): Promise<{
  origin: string;
  received: Received[];
  statuses: number[];
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v[0] : v;
      received.push({ path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    statuses,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
