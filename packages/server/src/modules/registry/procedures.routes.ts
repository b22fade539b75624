import {
  type Call,
  type CallMethod,
  PROCEDURE_IMPORT_MAX_BYTES,
  XLSX_CONTENT_TYPE,
  procedureCalls as calls,
  procedureImportCalls,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { AccountRow } from '../../db/schema.js';
import { auditContext, type AuditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import type { RawInput } from '../../platform/route.js';
import type { ProceduresService } from './procedures.service.js';

/*
 * Procedure management is an organization admin tab (spec 000 §2): its members read it (the desk
 * picks procedures and devices from it), its admins and the group's admins change it.
 */
const bucket = ({ params }: RawInput) => params.bucketId;
const read = { action: 'bucket_read', owner: bucket } as const;
const manage = { action: 'bucket_manage', owner: bucket } as const;

type Schema = z.ZodType | undefined;
/** What a call's handler takes as its body, and answers. */
type BodyOf<C> = C extends Call<CallMethod, string, Schema, Schema, infer B, Schema> ? z.output<NonNullable<B>> : never;
type AnswerOf<C> =
  C extends Call<CallMethod, string, Schema, Schema, Schema, infer A> ? z.input<NonNullable<A>> : never;
type CrudCalls = { list: Call; create: Call; update: Call; remove: Call };

/** What a list of procedure management does (ProceduresService's methods of that list). */
interface CrudOps<I, A> {
  list(bucketId: string): Promise<A[]>;
  create(actor: AccountRow, bucketId: string, input: I, ctx: AuditContext): Promise<A>;
  update(actor: AccountRow, bucketId: string, id: string, input: I, ctx: AuditContext): Promise<A>;
  remove(actor: AccountRow, bucketId: string, id: string, ctx: AuditContext): Promise<void>;
}

/**
 * The four routes of one list (contracts registry-calls `crud`): members read it, admins change it.
 * `summaries` name each call for the API's description.
 */
function crudRoutes<C extends CrudCalls>(
  app: FastifyInstance,
  set: C,
  summaries: Record<keyof CrudCalls, string>,
  ops: CrudOps<BodyOf<C['create']>, AnswerOf<C['create']>>,
): void {
  type Input = BodyOf<C['create']>;
  defineCallRoute(app, set.list, {
    summary: summaries.list,
    auth: read,
    handler: ({ bucket: b }) => ops.list(b.id),
  });
  defineCallRoute(app, set.create, {
    summary: summaries.create,
    auth: manage,
    handler: ({ account, bucket: b, body, request }) => ops.create(account, b.id, body as Input, auditContext(request)),
  });
  defineCallRoute(app, set.update, {
    summary: summaries.update,
    auth: manage,
    handler: ({ account, bucket: b, params, body, request }) =>
      ops.update(account, b.id, (params as { id: string }).id, body as Input, auditContext(request)),
  });
  defineCallRoute(app, set.remove, {
    summary: summaries.remove,
    auth: manage,
    handler: ({ account, bucket: b, params, request }) =>
      ops.remove(account, b.id, (params as { id: string }).id, auditContext(request)),
  });
}

/** Procedure management's calls (contracts procedureCalls, procedureImportCalls). */
export function procedureRoutes(app: FastifyInstance, _db: Db, procedures: ProceduresService): void {
  crudRoutes(
    app,
    calls.deviceGroups,
    {
      list: "The organization's device groups",
      create: 'Add a device group (names unique in the organization, any case)',
      update: 'Rename a device group',
      remove: 'Delete a device group; its devices and procedures go on without it',
    },
    {
      list: (bucketId) => procedures.deviceGroups(bucketId),
      create: (...args) => procedures.createDeviceGroup(...args),
      update: (...args) => procedures.updateDeviceGroup(...args),
      remove: (...args) => procedures.removeDeviceGroup(...args),
    },
  );
  crudRoutes(
    app,
    calls.devices,
    {
      list: "The organization's devices (its DICOM modalities)",
      create: 'Add a device (AE titles unique across organizations)',
      update: 'Change a device',
      remove: 'Delete a device (its scheduled exams stay)',
    },
    {
      list: (bucketId) => procedures.devices(bucketId),
      create: (...args) => procedures.createDevice(...args),
      update: (...args) => procedures.updateDevice(...args),
      remove: (...args) => procedures.removeDevice(...args),
    },
  );
  crudRoutes(
    app,
    calls.procedures,
    {
      list: "The organization's procedures, by sort then name",
      create: 'Add a procedure (codes unique in the organization, any case)',
      update: 'Change a procedure',
      remove: 'Delete a procedure (its scheduled exams keep its name and code)',
    },
    {
      list: (bucketId) => procedures.procedures(bucketId),
      create: (...args) => procedures.createProcedure(...args),
      update: (...args) => procedures.updateProcedure(...args),
      remove: (...args) => procedures.removeProcedure(...args),
    },
  );
  crudRoutes(
    app,
    calls.modalityDictionary,
    {
      list: "The organization's modality dictionary",
      create: 'Add a modality to the dictionary',
      update: 'Change a modality of the dictionary',
      remove: 'Remove a modality from the dictionary',
    },
    {
      list: (bucketId) => procedures.modalityDictionary(bucketId),
      create: (...args) => procedures.createModalityEntry(...args),
      update: (...args) => procedures.updateModalityEntry(...args),
      remove: (...args) => procedures.removeModalityEntry(...args),
    },
  );
  defineCallRoute(app, calls.resort, {
    summary: "Order the organization's procedures (ids: all of them, in their new order)",
    auth: manage,
    handler: ({ account, bucket: b, body, request }) =>
      procedures.resort(account, b.id, body.ids, auditContext(request)),
  });

  // The .xlsx arrives as the body itself; the parser is scoped to this route's plugin.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      XLSX_CONTENT_TYPE,
      { parseAs: 'buffer', bodyLimit: PROCEDURE_IMPORT_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );
    defineCallRoute(scope, procedureImportCalls.importProcedures, {
      summary: 'Import procedures from an .xlsx sheet (≤ 5 MB, ≤ 2000 rows): all rows or none',
      auth: manage,
      handler: ({ account, bucket: b, request }) => {
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) {
          throw new AppError('UnsupportedMediaType', `Send the file as ${XLSX_CONTENT_TYPE}`);
        }
        return procedures.importProcedures(account, b.id, body, auditContext(request));
      },
    });
  });
}
