// One GET call under load (statistics/turnaround has no POST form): as bench/lib/post-load.mjs,
// `connections` clients GET `url` as `token` for `seconds`; every response's own time is kept.
import autocannon from 'autocannon';
import { percentile, round } from '../lib/util.mjs';

export function getLoad(url, token, seconds, connections) {
  const times = [];
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: 'GET',
        connections,
        duration: seconds,
        headers: { authorization: `Bearer ${token}` },
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
