// One API query under load for the list benchmarks (bench/registry, bench/billing): `connections`
// clients POST `body` as `token` for `seconds`; every response's own time is kept, so the
// percentiles are exact rather than autocannon's histogram buckets.
import autocannon from 'autocannon';
import { percentile, round } from './util.mjs';

export function postLoad(url, token, body, seconds, connections) {
  const times = [];
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: 'POST',
        connections,
        duration: seconds,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
        setupClient: (client) => client.on('response', (_status, _bytes, ms) => times.push(ms)),
      },
      (err, res) => {
        if (err) return reject(err);
        resolve({
          requestsPerSecond: Math.round(res.requests.average),
          latencyMs: {
            p50: round(percentile(times, 50), 2),
            p95: round(percentile(times, 95), 2),
            p99: round(percentile(times, 99), 2),
            mean: round(times.reduce((a, b) => a + b, 0) / times.length, 2),
          },
          responses: times.length,
          non2xx: res.non2xx,
          errors: res.errors,
          timeouts: res.timeouts,
        });
      },
    );
  });
}
