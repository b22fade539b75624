import crypto from 'node:crypto';
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from './blobs.js';
import { AppError } from './errors.js';
import { apiNotFound } from './http.js';

/**
 * The headers of the pages yyp serves (issue 19 item 7), through @fastify/helmet:
 *
 * - Every answer, API and DICOMweb included: X-Content-Type-Options: nosniff (nothing else, so the
 *   hot paths pay for one header).
 * - The web app's answers (the app shell for every page path, its assets): a Content-Security-Policy
 *   with scripts from this origin only (no inline script; WebAssembly compilation for the viewer's
 *   image codecs), style elements from this origin or carrying the page's nonce, images from this
 *   origin, data: and blob: URLs (and the bucket's origin when blobs are in S3), no plugins, no
 *   <base> or form posts elsewhere; frame-ancestors 'none' and X-Frame-Options DENY, except the
 *   pages a hospital system embeds (/web, /web-report), which the FRAME_ANCESTORS origins may frame;
 *   Referrer-Policy no-referrer; Permissions-Policy turning off camera, microphone, geolocation and
 *   the other device features; HSTS (ignored by browsers over plain http).
 */

/** What Vite writes where a per-answer nonce goes (packages/web/vite.config.ts html.cspNonce). */
export const CSP_NONCE_PLACEHOLDER = 'YYP_CSP_NONCE';

/** The pages a hospital information system opens in a frame of its own (README "/web entry"). */
export const EMBEDDABLE_PAGES = ['/web', '/web-report'] as const;

/** Pages whose address can carry a credential (a link, a token, an upload code): never indexed. */
const TOKEN_PAGE =
  /^\/(reports\/s|web|web-report|viewer\/[^/?]+|upload|mobileSignature|service-orders\/upload|attachments\/upload)\/?(\?|$)/;

/**
 * Device features no page uses (the one page header helmet has no option for, so set by hand in
 * installWebPages). Only features Chromium knows: an unknown one is a console warning on every
 * page (it reported 'bluetooth'). The consultation's video room (issue 25) uses the camera, the
 * microphone, screen capture and autoplay of the remote participants' video with sound: this origin
 * only (self), never a framed page of another.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=(self)',
  'camera=(self)',
  'display-capture=(self)',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=(self)',
  'midi=()',
  'payment=()',
  'serial=()',
  'usb=()',
].join(', ');

export interface PagePolicy {
  /** origins that may frame the embeddable pages (FRAME_ANCESTORS); none: no page is framed */
  frameAncestors: readonly string[];
  /** other origins the browser loads blobs from and uploads them to (presigned S3 URLs) */
  blobOrigins: readonly string[];
  /** other origins of images only (WeChat's avatars) */
  imageOrigins?: readonly string[];
}

const nonces = new WeakMap<ServerResponse, string>();

/** The style nonce of one answer: the same in its CSP header and in its body. */
export function styleNonce(res: ServerResponse): string {
  let nonce = nonces.get(res);
  if (nonce === undefined) {
    nonce = crypto.randomBytes(16).toString('base64');
    nonces.set(res, nonce);
  }
  return nonce;
}

/** Helmet's options for a page: framed by nobody, or (embeddable) by the configured origins only. */
export function pageHelmetOptions(policy: PagePolicy, embeddable: boolean): FastifyHelmetOptions {
  const framed = embeddable && policy.frameAncestors.length > 0;
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        // The viewer's image codecs are WebAssembly: compiling it is not 'unsafe-eval'.
        'script-src': ["'self'", "'wasm-unsafe-eval'"],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'", (_req, res) => `'nonce-${styleNonce(res)}'`],
        // Style attributes only (never <style> elements or sheets): Ant Design's auto-sizing text
        // areas and Cornerstone's measurement labels set them with setAttribute('style'). An
        // attribute styles its own element and can load nothing img-src does not allow.
        'style-src-attr': ["'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', ...policy.blobOrigins, ...(policy.imageOrigins ?? [])],
        'connect-src': ["'self'", ...policy.blobOrigins],
        'font-src': ["'self'"],
        'worker-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': framed ? [...policy.frameAncestors] : ["'none'"],
      },
    },
    xFrameOptions: framed ? false : { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Browsers ignore it over http; over https it keeps this host on https for a year. Not for
    // subdomains: a hospital's other hosts may still be served over http.
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
  };
}

/** Only nosniff: the headers every answer gets, the API's and DICOMweb's included. */
const everyAnswer: FastifyHelmetOptions = {
  contentSecurityPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  referrerPolicy: false,
  strictTransportSecurity: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/** nosniff on every answer of the app (register before any route). */
export async function installNosniff(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, { global: true, ...everyAnswer });
}

/**
 * The origins outside this one that presigned blob URLs point at: none for the local store (its
 * links are paths of this server), the bucket's endpoint for S3 (S3_PUBLIC_ENDPOINT, S3_ENDPOINT or
 * AWS's, path or virtual-host style): taken from a URL the store signs, so it is exactly the
 * origin browsers are sent to.
 */
export async function blobOriginsOf(blobs: BlobStore): Promise<string[]> {
  if (!blobs.presignGet) return [];
  const url = new URL(await blobs.presignGet('csp/origin-probe', { expiresSeconds: 60 }), 'http://relative.invalid');
  return url.origin === 'http://relative.invalid' ? [] : [url.origin];
}

/**
 * Vite names every file it writes under assets/ by its content (assets/[name]-[hash].ext, and its
 * .br and .gz copies): such a file never changes, so it is cached for a year without asking again.
 * The others (boot.js, favicon.svg: copied from public/ under their own names) are revalidated on
 * each use, as the shell is.
 */
function cacheControlOf(filePath: string): string {
  return filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Paths that name a file, never a page: a source map (the build keeps them out of the served
 * folder, packages/web/dist-maps), anything under /assets/, a precompressed copy asked for by name.
 * When no such file is served they are a 404, not the app shell.
 */
const FILE_PATH = /^\/assets\/|\.(map|br|gz)$/;

export interface WebPagesOptions {
  /** the built web app (packages/web/dist); its index.html is read once, at start */
  webDist: string;
  policy: PagePolicy;
}

/**
 * The built web app: hashed assets, and the app shell (index.html with its nonce) for every other
 * GET outside the API, which routes on the client. In a scope of its own, so the page headers cost
 * the API nothing.
 */
export async function installWebPages(app: FastifyInstance, options: WebPagesOptions): Promise<void> {
  const [before, ...rest] = fs
    .readFileSync(path.join(options.webDist, 'index.html'), 'utf8')
    .split(CSP_NONCE_PLACEHOLDER);
  const serveShell = (request: FastifyRequest, reply: FastifyReply) => {
    const nonce = styleNonce(reply.raw);
    // A page whose address is a credential: never indexed (its Referrer-Policy keeps it from others).
    if (TOKEN_PAGE.test(request.url)) void reply.header('x-robots-tag', 'noindex, nofollow');
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send([before, ...rest].join(nonce));
  };
  await app.register(async (pages) => {
    await pages.register(fastifyHelmet, { global: true, ...pageHelmetOptions(options.policy, false) });
    pages.addHook('onRequest', async (_request, reply) => {
      void reply.header('permissions-policy', PERMISSIONS_POLICY);
    });
    await pages.register(fastifyStatic, {
      root: options.webDist,
      wildcard: false,
      index: false,
      // The shell is answered with its nonce filled in, never as the stored file.
      allowedPath: (pathName) => pathName !== '/index.html',
      // The build writes x.js.br and x.js.gz beside x.js (packages/web/precompress.ts): the one
      // Accept-Encoding allows is sent for x.js, with Vary: Accept-Encoding. They, and source maps
      // (should one be left in the folder), get no route of their own.
      preCompressed: true,
      globIgnore: ['**/*.map', '**/*.br', '**/*.gz'],
      setHeaders: (res, filePath) => {
        res.header('cache-control', cacheControlOf(filePath));
      },
    });
    const embeddable = pageHelmetOptions(options.policy, true);
    for (const url of EMBEDDABLE_PAGES) pages.get(url, { helmet: embeddable }, serveShell);
    // Path-style routes: every other GET answers the app shell, which routes on the client.
    pages.setNotFoundHandler((request, reply) => {
      if (
        (request.method === 'GET' || request.method === 'HEAD') &&
        !request.url.startsWith('/yyp/') &&
        !request.url.startsWith('/dicom-web')
      ) {
        const pathName = request.url.split('?')[0] ?? '';
        if (FILE_PATH.test(pathName)) {
          return reply.status(404).send(new AppError('NotFound', `No file ${pathName}`).toBody());
        }
        return serveShell(request, reply);
      }
      return apiNotFound(request, reply);
    });
  });
}
