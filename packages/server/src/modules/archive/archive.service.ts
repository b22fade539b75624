import { inflatedPart10 } from '../../dicom/deflate.js';
import fs from 'node:fs/promises';
import type { AccountRow } from '../../db/schema.js';
import { actorAudit, writeAudit, type AuditContext } from '../../platform/audit.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { ingestFileInstance, LARGE_INSTANCE_BYTES } from './ingest-file.js';
import { ingestInstance, type IngestDeps, type IngestResult, type IngestSource } from './ingest.js';
import * as modalitiesStore from './modalities.store.js';

function presentModality(m: Awaited<ReturnType<typeof modalitiesStore.listModalities>>[number]) {
  return { id: m.id, aeTitle: m.aeTitle, host: m.host, name: m.name };
}

/** The archive: one ingest for every path in, and the modalities allowed to send by DICOM. */
export class ArchiveService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly aeTitle: string,
    /** told of each new exam after its rows committed (notifications) */
    private readonly onNewExam?: IngestDeps['onNewExam'],
    /** wait for the database's WAL flush at each ingest commit (INGEST_SYNC_COMMIT) */
    private readonly syncCommit = false,
  ) {}

  private deps(): IngestDeps {
    const deps: IngestDeps = { db: this.db, blobs: this.blobs, clock: this.clock, syncCommit: this.syncCommit };
    if (this.onNewExam) deps.onNewExam = this.onNewExam;
    return deps;
  }

  /** Every path in: a deflated file is inflated first (dicom/deflate.ts), anything else ingested as received. */
  async ingest(bucketId: string, bytes: Uint8Array, source: IngestSource): Promise<IngestResult> {
    return ingestInstance(this.deps(), { bucketId, bytes: await inflatedPart10(bytes), source });
  }

  /**
   * An instance that is a file on disk (the upload wizard's files and zip entries). One under
   * LARGE_INSTANCE_BYTES is read whole and ingested as above; a larger one is parsed from its
   * header and moved or streamed into the blob store, memory flat whatever its size, and is then
   * gone from `file`. Either way the caller removes whatever is left.
   */
  async ingestFile(bucketId: string, file: string, source: IngestSource): Promise<IngestResult> {
    const { size } = await fs.stat(file);
    if (size < LARGE_INSTANCE_BYTES) return this.ingest(bucketId, await fs.readFile(file), source);
    return ingestFileInstance(this.deps(), { bucketId, file, size, source });
  }

  /** Association check: the called AE must be ours, the calling AE registered (and from its host, if set). */
  async resolveCaller(
    callingAe: string,
    calledAe: string,
    remoteAddress: string,
  ): Promise<{ bucketId: string } | { refuse: 'calling' | 'called' }> {
    if (calledAe !== this.aeTitle) return { refuse: 'called' };
    const modality = await modalitiesStore.findModalityByAe(this.db, callingAe);
    if (!modality) return { refuse: 'calling' };
    const remote = remoteAddress.replace(/^::ffff:/, '');
    if (modality.host && modality.host !== remote) return { refuse: 'calling' };
    return { bucketId: modality.bucketId };
  }

  /**
   * A C-MOVE destination: a device `bucketId` registered under `aeTitle` with its host and port
   * (spec: devices of the procedure management); null for any other AE title.
   */
  async moveDestination(bucketId: string, aeTitle: string): Promise<{ host: string; port: number } | null> {
    const modality = await modalitiesStore.findModalityByAe(this.db, aeTitle);
    if (!modality || modality.bucketId !== bucketId || !modality.host || !modality.port) return null;
    return { host: modality.host, port: modality.port };
  }

  async auditRefusedAssociation(
    callingAe: string,
    calledAe: string,
    remoteAddress: string,
    reason: string,
  ): Promise<void> {
    // A hostile peer's AE fields may hold any byte: control characters (NUL, which PostgreSQL
    // refuses in text) are recorded as '?', so the refusal is always written.
    // eslint-disable-next-line no-control-regex
    const printable = (ae: string) => ae.replace(/[\x00-\x1f\x7f]/g, '?');
    const clean = printable(callingAe) === callingAe;
    // A refused calling AE title that an organization registers is that organization's concern:
    // the row names it, so its group's auditors read the refusal (issue 19 §8).
    const registered = clean ? await modalitiesStore.findModalityByAe(this.db, callingAe) : undefined;
    await writeAudit(
      this.db,
      { ip: remoteAddress.replace(/^::ffff:/, ''), userAgent: 'dicom' },
      {
        action: 'dicom.association.refused',
        outcome: 'denied',
        category: 'security',
        ...(registered ? { bucketId: registered.bucketId } : {}),
        details: { callingAe: printable(callingAe), calledAe: printable(calledAe), reason },
      },
    );
  }

  async modalities(bucketId: string) {
    return (await modalitiesStore.listModalities(this.db, bucketId)).map(presentModality);
  }

  async addModality(
    actor: AccountRow,
    bucketId: string,
    input: { aeTitle: string; host?: string | null | undefined; name: string },
    ctx: AuditContext,
  ) {
    const row = await modalitiesStore.insertModality(
      this.db,
      bucketId,
      { aeTitle: input.aeTitle, host: input.host ?? null, name: input.name },
      this.clock.now(),
    );
    if (!row) throw new AppError('Conflict', 'This AE title is already registered');
    await writeAudit(
      this.db,
      ctx,
      actorAudit(actor, {
        action: 'bucket.modality.add',
        category: 'security',
        bucketId,
        targetType: 'modality',
        targetId: row.id,
        details: { aeTitle: row.aeTitle, host: row.host },
      }),
    );
    return presentModality(row);
  }

  async removeModality(actor: AccountRow, bucketId: string, id: string, ctx: AuditContext) {
    if (!(await modalitiesStore.deleteModality(this.db, bucketId, id))) throw errors.notFound('Modality');
    await writeAudit(
      this.db,
      ctx,
      actorAudit(actor, {
        action: 'bucket.modality.delete',
        category: 'security',
        bucketId,
        targetType: 'modality',
        targetId: id,
      }),
    );
  }
}
