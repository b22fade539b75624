// One API call under load for the benchmarks (bench/registry, bench/billing, bench/statistics):
// `connections` clients POST `body` (postLoad) or GET (getLoad, for calls with no POST form) as
// `token` for `seconds`; every response's own time is kept, so the percentiles are exact rather
// than autocannon's histogram buckets.
import autocannon from 'autocannon';
import { percentile, round } from './util.mjs';

function load(url, token, request, seconds, connections) {
  const times = [];
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration: seconds,
        ...request,
        headers: { ...request.headers, authorization: `Bearer ${token}` },
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

export function postLoad(url, token, body, seconds, connections) {
  const request = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  return load(url, token, request, seconds, connections);
}

export function getLoad(url, token, seconds, connections) {
  return load(url, token, { method: 'GET' }, seconds, connections);
}
