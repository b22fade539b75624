// WADO-RS frame retrieval for any DICOMweb archive (yyp or Orthanc): the frame URLs of a study
// from QIDO-RS, then every frame fetched one by one over keep-alive (as a viewer that asks for
// one image at a time) or with N requests in flight (as browsers do, 6 per host on HTTP/1.1).
// Each answer is read whole and its size checked, so a fast error cannot pass for a fast frame.
import { round } from './util.mjs';

/**
 * The frame URLs (frame 1 of each instance, in instance order) of a study, from QIDO-RS. `headers`
 * authenticate the calls (yyp's bearer token; nothing for Orthanc).
 */
export async function frameUrls(dicomWebBase, studyUid, headers = {}) {
  const res = await fetch(`${dicomWebBase}/studies/${studyUid}/instances?includefield=00200013&limit=1000`, {
    headers: { accept: 'application/dicom+json', ...headers },
  });
  if (!res.ok) throw new Error(`QIDO instances answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const rows = await res.json();
  const v = (row, tag) => row[tag]?.Value?.[0];
  return rows
    .map((row) => ({
      n: Number(v(row, '00200013') ?? 0),
      url: `${dicomWebBase}/studies/${studyUid}/series/${v(row, '0020000E')}/instances/${v(row, '00080018')}/frames/1`,
    }))
    .sort((a, b) => a.n - b.n)
    .map((r) => r.url);
}

/** The first study UID an archive lists (QIDO-RS). */
export async function firstStudyUid(dicomWebBase, headers = {}) {
  const res = await fetch(`${dicomWebBase}/studies`, { headers: { accept: 'application/dicom+json', ...headers } });
  if (!res.ok) throw new Error(`QIDO studies answered ${res.status}`);
  const [study] = await res.json();
  return study['0020000D'].Value[0];
}

async function fetchFrame(url, headers, minBytes) {
  const res = await fetch(url, {
    headers: { accept: 'multipart/related; type="application/octet-stream"', ...headers },
  });
  const body = await res.arrayBuffer();
  if (res.status !== 200) {
    throw new Error(`frame answered ${res.status}: ${Buffer.from(body).subarray(0, 200).toString()}`);
  }
  if (body.byteLength < minBytes) throw new Error(`frame answer of ${body.byteLength} bytes, expected ≥ ${minBytes}`);
  return body.byteLength;
}

/**
 * Fetches every URL once with `parallel` requests in flight. Returns frames per second, the total
 * time, the mean time per frame and the median/p95 latency of one request.
 */
export async function fetchFrames(urls, { headers = {}, parallel = 1, minBytes = 1 } = {}) {
  const latencies = [];
  let bytes = 0;
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++];
      const t0 = performance.now();
      bytes += await fetchFrame(url, headers, minBytes);
      latencies.push(performance.now() - t0);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(parallel, urls.length) }, worker));
  const ms = performance.now() - start;
  latencies.sort((a, b) => a - b);
  return {
    frames: urls.length,
    parallel,
    ms: round(ms),
    framesPerSecond: round((urls.length / ms) * 1000),
    msPerFrame: round(ms / urls.length, 2),
    p50Ms: round(latencies[Math.floor(latencies.length / 2)], 2),
    p95Ms: round(latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.95) - 1)], 2),
    bytes,
  };
}
