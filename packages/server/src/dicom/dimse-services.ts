/**
 * The Modality Worklist C-FIND and MPPS N-CREATE / N-SET services of the SCP (dimse.ts): a
 * received request message in, its responses out through the association's `respond`.
 */
import { randomUUID } from 'node:crypto';
import { COMMAND, type CommandSet, STATUS, TAG, commandUid, type encodeResponse } from './dimse-command.js';
import { MPPS_SOP_CLASS, MPPS_STATUS, type MppsEvent, type MppsResult, parseMppsAttributes } from './mpps.js';
import {
  MWL_FIND_SOP_CLASS,
  type WorklistItem,
  type WorklistQuery,
  parseWorklistQuery,
  worklistAnswer,
} from './mwl.js';

/** A C-FIND's answers yield to incoming PDUs (a C-CANCEL) every this many responses. */
const FIND_YIELD_EVERY = 16;

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
  let sent = 0;
  for (const item of items) {
    if (state.cancelled || exchange.closed()) break;
    let identifier: Buffer;
    try {
      identifier = worklistAnswer(item, query, transferSyntax);
    } catch {
      answer(STATUS.unableToProcess);
      return;
    }
    // Let incoming PDUs (a C-CANCEL) in now and then, and wait while the socket's buffer is full.
    if (!answer(STATUS.pending, identifier)) await exchange.drained();
    else if (++sent % FIND_YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
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
