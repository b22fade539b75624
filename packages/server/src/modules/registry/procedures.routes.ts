import {
  PROCEDURE_IMPORT_MAX_BYTES,
  XLSX_CONTENT_TYPE,
  procedureCalls as calls,
  procedureImportCalls,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
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

/** Procedure management's calls (contracts procedureCalls, procedureImportCalls). */
export function procedureRoutes(app: FastifyInstance, _db: Db, procedures: ProceduresService): void {
  const groups = calls.deviceGroups;
  defineCallRoute(app, groups.list, {
    summary: "The organization's device groups",
    auth: read,
    handler: ({ bucket: b }) => procedures.deviceGroups(b.id),
  });
  defineCallRoute(app, groups.create, {
    summary: 'Add a device group (names unique in the organization, any case)',
    auth: manage,
    handler: ({ account, bucket: b, body, request }) =>
      procedures.createDeviceGroup(account, b.id, body, auditContext(request)),
  });
  defineCallRoute(app, groups.update, {
    summary: 'Rename a device group',
    auth: manage,
    handler: ({ account, bucket: b, params, body, request }) =>
      procedures.updateDeviceGroup(account, b.id, params.id, body, auditContext(request)),
  });
  defineCallRoute(app, groups.remove, {
    summary: 'Delete a device group; its devices and procedures go on without it',
    auth: manage,
    handler: ({ account, bucket: b, params, request }) =>
      procedures.removeDeviceGroup(account, b.id, params.id, auditContext(request)),
  });

  const devices = calls.devices;
  defineCallRoute(app, devices.list, {
    summary: "The organization's devices (its DICOM modalities)",
    auth: read,
    handler: ({ bucket: b }) => procedures.devices(b.id),
  });
  defineCallRoute(app, devices.create, {
    summary: 'Add a device (AE titles unique across organizations)',
    auth: manage,
    handler: ({ account, bucket: b, body, request }) =>
      procedures.createDevice(account, b.id, body, auditContext(request)),
  });
  defineCallRoute(app, devices.update, {
    summary: 'Change a device',
    auth: manage,
    handler: ({ account, bucket: b, params, body, request }) =>
      procedures.updateDevice(account, b.id, params.id, body, auditContext(request)),
  });
  defineCallRoute(app, devices.remove, {
    summary: 'Delete a device (its scheduled exams stay)',
    auth: manage,
    handler: ({ account, bucket: b, params, request }) =>
      procedures.removeDevice(account, b.id, params.id, auditContext(request)),
  });

  const list = calls.procedures;
  defineCallRoute(app, list.list, {
    summary: "The organization's procedures, by sort then name",
    auth: read,
    handler: ({ bucket: b }) => procedures.procedures(b.id),
  });
  defineCallRoute(app, list.create, {
    summary: 'Add a procedure (codes unique in the organization, any case)',
    auth: manage,
    handler: ({ account, bucket: b, body, request }) =>
      procedures.createProcedure(account, b.id, body, auditContext(request)),
  });
  defineCallRoute(app, list.update, {
    summary: 'Change a procedure',
    auth: manage,
    handler: ({ account, bucket: b, params, body, request }) =>
      procedures.updateProcedure(account, b.id, params.id, body, auditContext(request)),
  });
  defineCallRoute(app, list.remove, {
    summary: 'Delete a procedure (its scheduled exams keep its name and code)',
    auth: manage,
    handler: ({ account, bucket: b, params, request }) =>
      procedures.removeProcedure(account, b.id, params.id, auditContext(request)),
  });
  defineCallRoute(app, calls.resort, {
    summary: "Order the organization's procedures (ids: all of them, in their new order)",
    auth: manage,
    handler: ({ account, bucket: b, body, request }) =>
      procedures.resort(account, b.id, body.ids, auditContext(request)),
  });

  const dictionary = calls.modalityDictionary;
  defineCallRoute(app, dictionary.list, {
    summary: "The organization's modality dictionary",
    auth: read,
    handler: ({ bucket: b }) => procedures.modalityDictionary(b.id),
  });
  defineCallRoute(app, dictionary.create, {
    summary: 'Add a modality to the dictionary',
    auth: manage,
    handler: ({ account, bucket: b, body, request }) =>
      procedures.createModalityEntry(account, b.id, body, auditContext(request)),
  });
  defineCallRoute(app, dictionary.update, {
    summary: 'Change a modality of the dictionary',
    auth: manage,
    handler: ({ account, bucket: b, params, body, request }) =>
      procedures.updateModalityEntry(account, b.id, params.id, body, auditContext(request)),
  });
  defineCallRoute(app, dictionary.remove, {
    summary: 'Remove a modality from the dictionary',
    auth: manage,
    handler: ({ account, bucket: b, params, request }) =>
      procedures.removeModalityEntry(account, b.id, params.id, auditContext(request)),
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
