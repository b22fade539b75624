// OHIF (npm @ohif/app ships its built viewer in dist/) as the peer of yyp's viewer: fetched with
// `npm pack` into a folder under /tmp (never into the project's dependencies, no install
// scripts), served by a small static server on a free loopback port whose /app-config.js points
// OHIF at a DICOMweb archive through a same-origin proxy on the same server (Orthanc 1.10 sends
// no CORS headers), so the browser talks to one origin, as yyp's viewer does.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { LOOPBACK, freePort, onCleanup, run } from './util.mjs';

export const OHIF_VERSION = process.env.BENCH_OHIF_VERSION || '3.13.2';

/** The dist folder of @ohif/app@OHIF_VERSION, packed and unpacked under /tmp once (kept for later runs). */
export async function ensureOhif(version = OHIF_VERSION) {
  const dir = path.join(os.tmpdir(), `yyp-bench-ohif-${version}`);
  const dist = path.join(dir, 'package', 'dist');
  if (fs.existsSync(path.join(dist, 'index.html'))) return dist;
  fs.mkdirSync(dir, { recursive: true });
  const packed = await run('npm', ['pack', `@ohif/app@${version}`, '--pack-destination', dir, '--ignore-scripts'], {
    cwd: dir,
    timeoutMs: 600_000,
  });
  if (packed.code !== 0) throw new Error(`npm pack @ohif/app@${version} failed: ${packed.stderr.slice(-1000)}`);
  const tgz = fs.readdirSync(dir).find((f) => f.endsWith('.tgz'));
  const untar = await run('tar', ['xzf', path.join(dir, tgz), '-C', dir]);
  if (untar.code !== 0 || !fs.existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`unpacking ${tgz} failed: ${untar.stderr.slice(-1000)}`);
  }
  return dist;
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

/**
 * OHIF's configuration: one DICOMweb data source at `root` (by default `/dicom-web` of the page's
 * own origin, the proxy); with `oidc`, OHIF signs in at that OpenID Connect provider first.
 */
function appConfig(origin, root = `${origin}/dicom-web`, oidc = undefined) {
  return `window.config = ${JSON.stringify(
    {
      ...(oidc ? { oidc: [oidc] } : {}),
      routerBasename: '/',
      extensions: [],
      modes: [],
      customizationService: {},
      showStudyList: true,
      maxNumberOfWebWorkers: 3,
      showWarningMessageForCrossOrigin: false,
      showCPUFallbackMessage: false,
      showLoadingIndicator: true,
      strictZSpacingForVolumeViewport: true,
      maxNumRequests: { interaction: 100, thumbnail: 5, prefetch: 25 },
      defaultDataSourceName: 'orthanc',
      dataSources: [
        {
          namespace: '@ohif/extension-default.dataSourcesModule.dicomweb',
          sourceName: 'orthanc',
          configuration: {
            friendlyName: 'Orthanc (bench)',
            name: 'orthanc',
            wadoUriRoot: root,
            qidoRoot: root,
            wadoRoot: root,
            qidoSupportsIncludeField: false,
            imageRendering: 'wadors',
            thumbnailRendering: 'wadors',
            enableStudyLazyLoad: true,
            supportsFuzzyMatching: false,
            supportsWildcard: true,
            dicomUploadEnabled: false,
            bulkDataURI: { enabled: true },
            omitQuotationForMultipartRequest: true,
          },
        },
      ],
    },
    null,
    2,
  )};\n`;
}

/**
 * Serves OHIF's dist on a free loopback port, /dicom-web/* proxied to `dicomWebBase` (keep-alive).
 * Returns its origin and `stop()`.
 *
 * `options.direct`: no proxy; OHIF calls `dicomWebBase` on its own origin (CORS) and, with
 * `options.oidc` (OHIF's oidc entry: authority, client_id, redirect_uri, …), signs in there first.
 * `options.port`: a fixed port (its origin must be registered at the provider before it starts).
 */
export async function serveOhif(dist, dicomWebBase, options = {}) {
  const port = options.port ?? (await freePort());
  const origin = `http://${LOOPBACK}:${port}`;
  const upstream = new URL(dicomWebBase);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const config = options.direct ? appConfig(origin, dicomWebBase, options.oidc) : appConfig(origin);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, origin);
    if (!options.direct && (url.pathname.startsWith('/dicom-web/') || url.pathname === '/dicom-web')) {
      const proxied = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: upstream.pathname + url.pathname.slice('/dicom-web'.length) + url.search,
          headers: { ...req.headers, host: upstream.host },
          agent,
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      proxied.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      req.pipe(proxied);
      return;
    }
    if (url.pathname === '/app-config.js') {
      res.writeHead(200, { 'content-type': TYPES['.js'], 'cache-control': 'no-store' });
      res.end(config);
      return;
    }
    let file = path.join(dist, path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      file = path.join(dist, 'index.html'); // the SPA's routes (/viewer?StudyInstanceUIDs=…)
    }
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    fs.createReadStream(file).pipe(res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(port, LOOPBACK, resolve));
  const stop = onCleanup(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  );
  return { origin, dicomWebBase: options.direct ? dicomWebBase : `${origin}/dicom-web`, stop: () => stop() };
}
