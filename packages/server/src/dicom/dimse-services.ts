/**
 * The Modality Worklist C-FIND and MPPS N-CREATE / N-SET services of the SCP (dimse.ts): a
 * received request message in, its responses out through the association's `respond`.
 */
import { randomUUID } from 'node:crypto';
import { COMMAND, type CommandSet, STATUS, TAG, commandUid, type encodeResponse } from './dimse-command.js';
import { MPPS_SOP_CLASS, MPPS_STATUS, type MppsEvent, type MppsResult, parseMppsAttributes } from './mpps.js';
import { ByteWriter } from './dataset-writer.js';
import { MWL_FIND_SOP_CLASS, type WorklistItem, type WorklistQuery, parseWorklistQuery } from './mwl.js';
import { WorklistEncoder } from './mwl-encoder.js';

/**
 * A C-FIND's answers leave in writes of about this many bytes of identifiers (some 70 items), and
 * yield to incoming PDUs (a C-CANCEL) between them.
 */
const FIND_BATCH_BYTES = 32 * 1024;

/** A request message as received: its command set and its data set's fragments (dropped once read). */
export interface ServiceMessage {
  command: CommandSet;
  data: Buffer[];
}

/** What a service needs of the association a request came on. */
export interface ServiceExchange {
  /** The message's presentation context's transfer syntax. */
  transferSyntax: string;
  messageId: number;
  message: ServiceMessage;
  /** Sends a response command set and its data set, if any; false when the socket's buffer is full. */
  respond(response: Parameters<typeof encodeResponse>[0], dataset?: Buffer): boolean;
  /** Sends the response once per data set, in one write; false when the socket's buffer is full. */
  respondEach(response: Parameters<typeof encodeResponse>[0], datasets: Uint8Array[]): boolean;
  /** Resolves when the socket's write buffer has drained, or the socket closed. */
  drained(): Promise<void>;
  closed(): boolean;
}

/**
 * Modality Worklist C-FIND: one pending response (0xFF00) per item with its identifier, then
 * success; cancelled (0xFE00) when a C-CANCEL came meanwhile (`state`); 0xA900 for an identifier
 * that is no worklist query, 0xC000 when `worklist` fails.
 */
export async function answerWorklistFind(
  exchange: ServiceExchange,
  worklist: (query: WorklistQuery) => Promise<WorklistItem[]>,
  state: { cancelled: boolean },
): Promise<void> {
  const { message, messageId, transferSyntax } = exchange;
  const answer = (status: number, dataset?: Buffer) =>
    exchange.respond({ commandField: 0x8020, messageId, status, sopClassUid: MWL_FIND_SOP_CLASS }, dataset);
  let query: WorklistQuery;
  try {
    if (message.data.length === 0) throw new Error('C-FIND without an identifier');
    query = parseWorklistQuery(Buffer.concat(message.data), transferSyntax);
  } catch {
    answer(STATUS.identifierDoesNotMatch);
    return;
  } finally {
    message.data = [];
  }
  let items: WorklistItem[];
  try {
    items = await worklist(query);
  } catch {
    answer(STATUS.unableToProcess);
    return;
  }
  const encoder = new WorklistEncoder(query, transferSyntax);
  const out = new ByteWriter(FIND_BATCH_BYTES + 4096);
  let next = 0;
  while (next < items.length && !state.cancelled && !exchange.closed()) {
    // A batch of identifiers written back to back into `out`, each answered with a pending status.
    out.truncate(0);
    const ends: number[] = [];
    let failed = false;
    try {
      for (; next < items.length && out.length < FIND_BATCH_BYTES; next++) {
        encoder.encode(items[next]!, out);
        ends.push(out.length);
      }
    } catch {
      failed = true;
    }
    const datasets = ends.map((end, i) => out.view(i === 0 ? 0 : ends[i - 1]!, end));
    const flushed =
      datasets.length === 0 ||
      exchange.respondEach(
        { commandField: 0x8020, messageId, status: STATUS.pending, sopClassUid: MWL_FIND_SOP_CLASS },
        datasets,
      );
    if (failed) {
      answer(STATUS.unableToProcess);
      return;
    }
    // Wait while the socket's buffer is full ('drain' may come before any input is read), and let
    // incoming PDUs (a C-CANCEL) in; the last batch and the final status leave together.
    if (!flushed) await exchange.drained();
    if (next < items.length) await new Promise((resolve) => setImmediate(resolve));
  }
  answer(state.cancelled ? STATUS.cancel : STATUS.success);
}

/**
 * MPPS N-CREATE / N-SET (`field`): the MppsResult of `mpps` picks the status (PS3.4 F.7); an
 * attribute list that is no MPPS one, or a failing `mpps`, answers processing failure (0x0110).
 */
export async function answerMpps(
  exchange: ServiceExchange,
  field: number,
  mpps: (event: MppsEvent) => Promise<MppsResult>,
): Promise<void> {
  const { message, messageId, transferSyntax } = exchange;
  const { command } = message;
  const kind = field === COMMAND.nCreateRq ? 'create' : 'set';
  // N-CREATE may leave the instance UID to the SCP (PS3.7 10.1.5); N-SET names it as requested.
  const sopInstanceUid =
    kind === 'create'
      ? (commandUid(command, TAG.affectedSopInstanceUid) ?? newUid())
      : (commandUid(command, TAG.requestedSopInstanceUid) ?? '');
  const answer = (status: number, errorComment?: string) =>
    exchange.respond({
      commandField: field | 0x8000,
      messageId,
      status,
      sopClassUid: MPPS_SOP_CLASS,
      sopInstanceUid,
      errorComment,
    });
  if (!sopInstanceUid) return void answer(MPPS_STATUS.noSuchInstance, 'no Requested SOP Instance UID');
  let event: MppsEvent;
  try {
    event = {
      kind,
      sopInstanceUid,
      attributes: parseMppsAttributes(Buffer.concat(message.data), transferSyntax),
    };
  } catch (err) {
    return void answer(MPPS_STATUS.processingFailure, err instanceof Error ? err.message : undefined);
  } finally {
    message.data = [];
  }
  let result: MppsResult;
  try {
    result = await mpps(event);
  } catch {
    result = 'processingFailure';
  }
  answer(MPPS_STATUS[result] ?? MPPS_STATUS.processingFailure);
}

/** A UID for an instance the SCP creates: 2.25 and a random UUID as an integer (PS3.5 B.2). */
function newUid(): string {
  return `2.25.${BigInt(`0x${randomUUID().replaceAll('-', '')}`).toString()}`;
}
