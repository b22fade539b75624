import type { FastifyBaseLogger } from 'fastify';
import { SEND_FAILED_LIST_MAX } from '@yyp/contracts';
import type { DicomSendRow } from '../../db/schema.js';
import { part10Dataset } from '../../dicom/part10.js';
import { StoreScu } from '../../dicom/store-scu.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { JobRow } from '../../platform/jobs.js';
import * as store from './forwarding.store.js';

/** A send's counts are written at most this often while it runs (the exam's menu shows its progress). */
const PROGRESS_EVERY_MS = 1000;
/** Attempts of a send before it is given up (30 s, 2 min, 8 min, 32 min apart: the job queue's backoff). */
export const SEND_ATTEMPTS = 5;

/**
 * One send (a `dicom.send` job): associates with the destination as our AE title, proposing each
 * SOP class in the transfer syntax its instances are stored in, and sends every instance as stored.
 * An instance the destination refuses (a status that is no success or warning, or a syntax it did
 * not accept) is listed as failed and the send goes on; a send that cannot reach the destination
 * or loses the association throws, and the job queue retries it: each attempt sends the whole set
 * again (an archive keeps an instance once). The last attempt's outcome is the send's.
 */
export class SendRunner {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly aeTitle: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async run(job: JobRow): Promise<void> {
    const send = await store.findSend(this.db, String(job.payload.sendId));
    if (!send || send.status === 'done') return;
    const destination = send.destinationId
      ? await store.findDestination(this.db, send.bucketId, send.destinationId)
      : undefined;
    await store.startAttempt(this.db, send.id, this.clock.now());
    if (!destination?.host || !destination.port) {
      await this.finish(send, { status: 'failed', lastError: 'the destination device has no host and port any more' });
      return;
    }
    const items = await store.sendInstances(this.db, send.examId, send.seriesUids);
    let scu: StoreScu;
    try {
      scu = await StoreScu.associate(
        { host: destination.host, port: destination.port, callingAe: this.aeTitle, calledAe: destination.aeTitle },
        items.map((i) => ({ sopClassUid: i.sopClassUid, transferSyntaxUid: i.transferSyntaxUid })),
      );
    } catch (err) {
      await this.retryLater(send, job, err);
      throw err;
    }
    let sent = 0;
    const failed: string[] = [];
    let written = Date.now();
    const progress = async (force: boolean) => {
      if (!force && Date.now() - written < PROGRESS_EVERY_MS) return;
      written = Date.now();
      await store.updateSend(this.db, send.id, {
        total: items.length,
        sent,
        failed: failed.length,
        failedInstances: failed.slice(0, SEND_FAILED_LIST_MAX),
        updated: this.clock.now(),
      });
    };
    await progress(true);
    try {
      for (const item of items) {
        const file = Buffer.from(await this.blobs.get(item.blobKey));
        const status = await scu.store(
          item.sopClassUid,
          item.sopInstanceUid,
          item.transferSyntaxUid,
          part10Dataset(file).dataset,
        );
        if (status === 0x0000 || status === 0x0001 || (status >= 0xb000 && status <= 0xbfff)) sent++;
        else failed.push(item.sopInstanceUid);
        await progress(false);
      }
    } catch (err) {
      scu.abort();
      await progress(true);
      await this.retryLater(send, job, err);
      throw err;
    }
    await scu.release().catch(() => scu.abort());
    await this.finish(send, {
      status: failed.length === 0 ? 'done' : 'failed',
      total: items.length,
      sent,
      failed: failed.length,
      failedInstances: failed.slice(0, SEND_FAILED_LIST_MAX),
      lastError: failed.length === 0 ? null : `${failed.length} instance(s) refused by ${destination.aeTitle}`,
    });
  }

  /** The send waits for the job queue's next attempt (or has failed, at the last). */
  private async retryLater(send: DicomSendRow, job: JobRow, err: unknown): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    const last = job.attempts >= job.maxAttempts;
    this.log.warn({ send: send.id, attempt: job.attempts, last, error: message }, 'DICOM send failed');
    await store.updateSend(this.db, send.id, {
      status: last ? 'failed' : 'queued',
      lastError: message.slice(0, 500),
      updated: this.clock.now(),
      ...(last ? { finished: this.clock.now() } : {}),
    });
  }

  private async finish(send: DicomSendRow, v: Partial<DicomSendRow>): Promise<void> {
    await store.updateSend(this.db, send.id, { ...v, updated: this.clock.now(), finished: this.clock.now() });
  }
}
