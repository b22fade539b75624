import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountRow } from '../../db/schema.js';
import { CodecError } from '../../dicom/codecs/index.js';
import {
  encodeImage,
  frameOfFile,
  NoSuchFrame,
  readPixelModule,
  RenderError,
  renderedType,
  renderFrame,
  RenderParamError,
  renderParams,
  type FrameBytes,
  type PixelModule,
} from '../../dicom/render/index.js';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { defineRoute } from '../../platform/route.js';
import type { DicomWebAudit } from './dicomweb.audit.js';
import { readScope } from './dicomweb.scope.js';
import type { DicomWebService } from './dicomweb.service.js';
import type { StoredFile } from './frames.store.js';
import { searchInstances } from './qido.store.js';

type Path = { study: string; series?: string; instance?: string; frames?: string };

/**
 * The stored file a rendered URL names, in the organizations where the caller holds exam_get
 * (consultation copies it takes no part in hidden): the instance itself, or for a study or a
 * series its first image (by series number, then instance number). Pixel data is what the frames
 * route serves to every such caller, masked or not; the private fields it masks are not drawn.
 */
async function fileOf(db: Db, web: DicomWebService, caller: { id: string }, p: Path): Promise<StoredFile> {
  // An instance or a frame, the common case (viewers' thumbnails and OHIF's images): the frames
  // route's look-up, which reads consultation copies only when the file is one.
  if (p.instance && p.series) return web.instanceFileOf(caller, p.study, p.series, p.instance);
  const scope = await readScope(db, caller);
  const rows = await searchInstances(db, scope, {}, p.study, p.series);
  if (rows.length === 0) throw errors.notFound(p.series ? 'Series' : 'Study');
  const first = rows.find((r) => r.instance.rows) ?? rows[0]!;
  return { blobKey: first.instance.blobKey, size: first.instance.size };
}

/** Pixel modules remembered; past this the least recently used is forgotten. */
const MODULES_MAX = 10_000;

/**
 * The pixel modules of files rendered before, by blob key and size: a stored file never changes
 * under its key (frame-source.ts), so a later rendering of it reads only its frame, through the
 * frame source's remembered layout, not the whole file again.
 */
class PixelModules {
  private readonly modules = new Map<string, PixelModule>();

  get(key: string): PixelModule | undefined {
    const module = this.modules.get(key);
    if (module) {
      this.modules.delete(key); // most recently used last
      this.modules.set(key, module);
    }
    return module;
  }

  set(key: string, module: PixelModule): void {
    this.modules.set(key, module);
    if (this.modules.size > MODULES_MAX) this.modules.delete(this.modules.keys().next().value!);
  }
}

/** The one frame a frames/{list}/rendered URL may name. */
function frameNumber(list: string | undefined): number {
  if (list === undefined) return 1;
  if (!/^\d+$/.test(list) || Number(list) < 1) {
    throw errors.validation('A rendered frame is one frame number from 1 (frames/1/rendered)');
  }
  return Number(list);
}

/**
 * Rendered resources and thumbnails (PS3.18 8.3.5, 9.5) of studies, series, instances and frames,
 * as image/jpeg (the default) or image/png. A study, a series or an instance is rendered as one
 * image: the first frame of its first image; frames/{n}/rendered is that frame. Audited as a
 * viewer's read (dicomweb.audit.ts), like the frames they show.
 */
export function renderedRoutes(app: FastifyInstance, db: Db, web: DicomWebService, audit: DicomWebAudit): void {
  const modules = new PixelModules();
  const render = async (
    thumbnail: boolean,
    account: AccountRow,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<never> => {
    const p = request.params as Path;
    const type = renderedType(request.headers.accept);
    if (!type) throw new AppError('NotAcceptable', 'Rendered images are answered as image/jpeg or image/png');
    let params;
    try {
      params = renderParams(request.query as Record<string, unknown>, thumbnail);
    } catch (err) {
      if (err instanceof RenderParamError) throw errors.validation(err.message);
      throw err;
    }
    const n = frameNumber(p.frames);
    const file = await fileOf(db, web, account, p);
    await audit.read(account, auditContext(request), 'rendered', p.study, p.series, p.instance);
    let body: Uint8Array;
    try {
      const key = `${file.blobKey}|${file.size}`;
      let module = modules.get(key);
      let frame: FrameBytes;
      if (module) {
        [frame] = (await web.frameSource.read(file, [n])) as [FrameBytes];
      } else {
        const bytes = await web.read(file.blobKey);
        module = readPixelModule(bytes);
        modules.set(key, module);
        frame = frameOfFile(bytes, n, module);
      }
      const image = await renderFrame(frame, module, params);
      body = await encodeImage(image, type, params.quality);
    } catch (err) {
      if (err instanceof NoSuchFrame) throw errors.notFound('Frame');
      if (err instanceof RenderParamError) throw errors.validation(err.message);
      // PS3.18 8.7.4: a representation the server cannot produce is 406 Not Acceptable.
      if (err instanceof RenderError || err instanceof CodecError) {
        throw new AppError('NotAcceptable', `This image cannot be rendered: ${err.message}`);
      }
      throw err;
    }
    return reply.header('content-type', type).send(Buffer.from(body.buffer, body.byteOffset, body.length)) as never;
  };
  const rendered = {
    summary: 'WADO-RS: rendered image (image/jpeg or image/png)',
    auth: 'account',
    handler: ({ account, request, reply }: { account: AccountRow; request: FastifyRequest; reply: FastifyReply }) =>
      render(false, account, request, reply),
  } as const;
  const thumbnail = {
    summary: 'WADO-RS: thumbnail (image/jpeg or image/png, 128×128 unless a viewport is given)',
    auth: 'account',
    handler: ({ account, request, reply }: { account: AccountRow; request: FastifyRequest; reply: FastifyReply }) =>
      render(true, account, request, reply),
  } as const;
  defineRoute(app, { method: 'GET', url: 'studies/:study/rendered', ...rendered });
  defineRoute(app, { method: 'GET', url: 'studies/:study/series/:series/rendered', ...rendered });
  defineRoute(app, { method: 'GET', url: 'studies/:study/series/:series/instances/:instance/rendered', ...rendered });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series/:series/instances/:instance/frames/:frames/rendered',
    ...rendered,
  });
  defineRoute(app, { method: 'GET', url: 'studies/:study/thumbnail', ...thumbnail });
  defineRoute(app, { method: 'GET', url: 'studies/:study/series/:series/thumbnail', ...thumbnail });
  defineRoute(app, { method: 'GET', url: 'studies/:study/series/:series/instances/:instance/thumbnail', ...thumbnail });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series/:series/instances/:instance/frames/:frames/thumbnail',
    ...thumbnail,
  });
}
