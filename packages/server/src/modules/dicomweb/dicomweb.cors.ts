import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** What a cross-origin viewer may send and read (PS3.18 8.1: Accept, Authorization; its answers' headers). */
const ALLOWED_METHODS = 'GET, POST, OPTIONS';
const ALLOWED_HEADERS = 'Authorization, Accept, Content-Type';
const EXPOSED_HEADERS = 'Warning, Content-Location, Content-Type, Content-Length, Content-Disposition';
/** A preflight answer is cached by the browser this long (seconds). */
const MAX_AGE = 600;

/**
 * CORS for /dicom-web (issue 28 item 11): a viewer served from one of `origins` (OHIF elsewhere in
 * the hospital) may call DICOMweb with its bearer token. Its preflight (OPTIONS) is answered 204
 * with the methods and headers allowed; every answer to such an origin, errors included, names it
 * in Access-Control-Allow-Origin. No credentials (cookies) are involved: the token is a header.
 * Any other origin gets no CORS header, so its page cannot read the answers. Nothing changes for
 * same-origin callers, who send no Origin or yyp's own.
 */
export function installDicomWebCors(app: FastifyInstance, origins: readonly string[]): void {
  const allowed = new Set(origins);
  const originOf = (request: FastifyRequest) => {
    const origin = request.headers.origin?.toLowerCase();
    return origin && allowed.has(origin) ? origin : null;
  };
  const allow = (reply: FastifyReply, origin: string) =>
    reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', EXPOSED_HEADERS);
  app.addHook('onSend', async (request, reply, payload) => {
    void reply.header('vary', 'Origin');
    const origin = originOf(request);
    if (origin) allow(reply, origin);
    return payload;
  });
  app.route({
    method: 'OPTIONS',
    url: '*',
    config: { auth: 'public' },
    handler: async (request, reply) => {
      const origin = originOf(request);
      if (origin) {
        allow(reply, origin)
          .header('access-control-allow-methods', ALLOWED_METHODS)
          .header('access-control-allow-headers', ALLOWED_HEADERS)
          .header('access-control-max-age', String(MAX_AGE));
      }
      return reply.code(204).send();
    },
  });
}
