/**
 * The Query/Retrieve SCP services (PS3.4 C.4): C-FIND in the Patient Root and Study Root models,
 * C-MOVE (C-STORE sub-operations on a new association to the destination, store-scu.ts) and
 * C-GET (sub-operations on the same association). The archive answers through
 * QueryRetrieveHandlers; this file speaks the protocol.
 */
import { COMMAND, STATUS, TAG, type SubOperationCounts, commandUid, type CommandSet } from './dimse-command.js';
import type { ServiceExchange } from './dimse-services.js';
import { DatasetBuilder, EXPLICIT_VR_LE } from './dataset-writer.js';
import type { DimseCaller } from './dimse-handlers.js';
import { part10Dataset } from './part10.js';
import {
  QR_TAG,
  QrIdentifierError,
  type qrService,
  parseQrQuery,
  parseQrRetrieve,
  qrAnswer,
  type QrMatch,
  type QrModel,
  type QrQuery,
  type QrRetrieve,
} from './qr.js';
import { StoreScu, StoreScuError } from './store-scu.js';

export type QrService = NonNullable<ReturnType<typeof qrService>>;

/** The request command of each Q/R operation. */
export const QR_COMMAND = { find: COMMAND.cFindRq, move: COMMAND.cMoveRq, get: COMMAND.cGetRq } as const;

/** Who asked: the organization its AE title belongs to, and that AE title. */
export type QrCaller = DimseCaller;

/** One stored instance to send. */
export interface RetrieveInstance {
  sopClassUid: string;
  sopInstanceUid: string;
  transferSyntaxUid: string;
  /** the stored file, for `read` */
  blobKey: string;
  examId: string;
}

/** How a C-MOVE or C-GET ended, for the archive's audit. */
export interface RetrieveOutcome {
  operation: 'move' | 'get';
  request: QrRetrieve;
  /** the C-MOVE destination's AE title */
  destination?: string;
  instances: readonly RetrieveInstance[];
  completed: number;
  failed: number;
  warning: number;
  cancelled: boolean;
  /** why no sub-operation ran (unknown destination, unreachable peer), when none did */
  refused?: string;
}

export interface QueryRetrieveHandlers {
  /** The matches of a C-FIND, in the caller's organization only. */
  find(caller: QrCaller, query: QrQuery): Promise<QrMatch[]>;
  /** The instances a C-MOVE or C-GET names, in the caller's organization only. */
  instances(caller: QrCaller, request: QrRetrieve): Promise<RetrieveInstance[]>;
  /** A C-MOVE destination: an AE title the caller's organization registered with its host and port. */
  destination(caller: QrCaller, aeTitle: string): Promise<{ host: string; port: number } | null>;
  /** A stored instance's Part 10 file. */
  read(instance: RetrieveInstance): Promise<Buffer>;
  /** Called once per C-MOVE and C-GET when it ended, whichever way. */
  retrieved(caller: QrCaller, outcome: RetrieveOutcome): void;
}

/** Our AE title (answered as Retrieve AE Title, used as calling AE of C-MOVE's association). */
export interface QrContext {
  ourAe: string;
  caller: QrCaller;
  handlers: QueryRetrieveHandlers;
  state: { cancelled: boolean };
}

const FIND_BATCH = 64;

/** C-FIND: one pending response (0xFF00) per match, then success; 0xA900 for no query of the model. */
export async function answerQrFind(exchange: ServiceExchange, model: QrModel, ctx: QrContext): Promise<void> {
  const { message, messageId, transferSyntax } = exchange;
  const sopClassUid = commandUid(message.command, TAG.affectedSopClassUid);
  const answer = (status: number, errorComment?: string) =>
    exchange.respond({ commandField: COMMAND.cFindRq | 0x8000, messageId, status, sopClassUid, errorComment });
  const refuse = (err: unknown) =>
    answer(STATUS.identifierDoesNotMatch, err instanceof Error ? err.message : undefined);
  let query: QrQuery;
  try {
    query = parseQrQuery(Buffer.concat(message.data), transferSyntax, model);
  } catch (err) {
    refuse(err);
    return;
  } finally {
    message.data = [];
  }
  let matches: QrMatch[];
  try {
    matches = await ctx.handlers.find(ctx.caller, query);
  } catch (err) {
    // A value not of its key's form (a date that is no date) is the identifier's fault.
    if (err instanceof QrIdentifierError) refuse(err);
    else answer(STATUS.unableToProcess);
    return;
  }
  for (let at = 0; at < matches.length && !ctx.state.cancelled && !exchange.closed(); at += FIND_BATCH) {
    const datasets = matches.slice(at, at + FIND_BATCH).map((m) => qrAnswer(m, query, transferSyntax, ctx.ourAe));
    const flushed = exchange.respondEach(
      { commandField: COMMAND.cFindRq | 0x8000, messageId, status: STATUS.pending, sopClassUid },
      datasets,
    );
    if (!flushed) await exchange.drained();
    await new Promise((resolve) => setImmediate(resolve));
  }
  answer(ctx.state.cancelled ? STATUS.cancel : STATUS.success);
}

/** Where C-STORE sub-operations go: another association (C-MOVE) or the requestor's (C-GET). */
export interface SubOperationSink {
  store(instance: RetrieveInstance, dataset: Buffer): Promise<number>;
  close(): Promise<void>;
}

const isWarning = (status: number) => status === 0x0001 || (status >= 0xb000 && status <= 0xbfff);

/** The Failed SOP Instance UID List identifier of a final response that reports failures. */
function failedList(uids: string[], transferSyntax: string): Buffer {
  return new DatasetBuilder('')
    .text(QR_TAG.failedSopInstanceUidList, 'UI', uids)
    .toBuffer(transferSyntax === EXPLICIT_VR_LE);
}

/**
 * C-MOVE (`operation` move: `sink` opens the association to the destination) and C-GET (the sink
 * stores on the requestor's association): a pending response with the counts after each
 * sub-operation, then the final status: success, 0xB000 with the failed instances listed when some
 * failed, 0xA702 when all failed, 0xFE00 after a C-CANCEL.
 */
export async function answerRetrieve(
  exchange: ServiceExchange,
  model: QrModel,
  ctx: QrContext,
  operation: 'move' | 'get',
  openSink: (
    instances: RetrieveInstance[],
    destination?: { ae: string; host: string; port: number },
  ) => Promise<SubOperationSink>,
): Promise<void> {
  const { message, messageId, transferSyntax } = exchange;
  const command: CommandSet = message.command;
  const commandField = (operation === 'move' ? COMMAND.cMoveRq : COMMAND.cGetRq) | 0x8000;
  const sopClassUid = commandUid(command, TAG.affectedSopClassUid);
  const respond = (status: number, counts?: SubOperationCounts, dataset?: Buffer, errorComment?: string) =>
    exchange.respond(
      { commandField, messageId, status, sopClassUid, errorComment, ...(counts ? { counts } : {}) },
      dataset,
    );
  let request: QrRetrieve;
  try {
    request = parseQrRetrieve(Buffer.concat(message.data), transferSyntax, model);
  } catch (err) {
    respond(STATUS.identifierDoesNotMatch, undefined, undefined, err instanceof Error ? err.message : undefined);
    return;
  } finally {
    message.data = [];
  }
  const outcome: RetrieveOutcome = {
    operation,
    request,
    instances: [],
    completed: 0,
    failed: 0,
    warning: 0,
    cancelled: false,
  };
  const done = () => ctx.handlers.retrieved(ctx.caller, outcome);
  let destination: { ae: string; host: string; port: number } | undefined;
  if (operation === 'move') {
    const ae = commandUid(command, TAG.moveDestination)?.trim() ?? '';
    outcome.destination = ae;
    const found = ae ? await ctx.handlers.destination(ctx.caller, ae).catch(() => null) : null;
    if (!found) {
      outcome.refused = 'unknown destination';
      done();
      respond(
        STATUS.moveDestinationUnknown,
        undefined,
        undefined,
        `move destination "${ae.slice(0, 16)}" is not registered`,
      );
      return;
    }
    destination = { ae, ...found };
  }
  let instances: RetrieveInstance[];
  try {
    instances = await ctx.handlers.instances(ctx.caller, request);
  } catch {
    respond(STATUS.unableToProcess);
    return;
  }
  outcome.instances = instances;
  const failedUids: string[] = [];
  let sink: SubOperationSink | null = null;
  if (instances.length > 0) {
    try {
      sink = await openSink(instances, destination);
    } catch (err) {
      outcome.refused = err instanceof StoreScuError ? err.message : 'cannot open the association';
      outcome.failed = instances.length;
      done();
      const uids = instances.map((i) => i.sopInstanceUid);
      respond(
        STATUS.unableToPerformSubOperations,
        { completed: 0, failed: uids.length, warning: 0 },
        failedList(uids, transferSyntax),
        outcome.refused.slice(0, 64),
      );
      return;
    }
  }
  // Each file is read while the one before it is being sent.
  let nextRead: Promise<Buffer | null> | null = instances[0] ? readOrNull(ctx, instances[0]) : null;
  for (let i = 0; i < instances.length && sink; i++) {
    if (ctx.state.cancelled || exchange.closed()) {
      outcome.cancelled = true;
      break;
    }
    const instance = instances[i]!;
    const file = await nextRead;
    nextRead = instances[i + 1] ? readOrNull(ctx, instances[i + 1]!) : null;
    let status = 0xc000;
    if (file) {
      try {
        status = await sink.store(instance, part10Dataset(file).dataset);
      } catch {
        status = 0xc000;
        // The association is gone: the rest fail as well.
        failedUids.push(...instances.slice(i + 1).map((x) => x.sopInstanceUid));
        outcome.failed += instances.length - i - 1;
        i = instances.length;
      }
    }
    if (status === 0x0000) outcome.completed++;
    else if (isWarning(status)) outcome.warning++;
    else {
      outcome.failed++;
      failedUids.push(instance.sopInstanceUid);
    }
    const remaining = instances.length - outcome.completed - outcome.failed - outcome.warning;
    if (remaining > 0) {
      const flushed = respond(STATUS.pending, { remaining, ...counts(outcome) });
      if (!flushed) await exchange.drained();
    }
  }
  await sink?.close().catch(() => undefined);
  done();
  const final = counts(outcome);
  if (outcome.cancelled) {
    const notSent = instances.length - final.completed - final.failed - final.warning;
    respond(
      STATUS.cancel,
      { remaining: notSent, ...final },
      failedUids.length ? failedList(failedUids, transferSyntax) : undefined,
    );
  } else if (outcome.failed > 0) {
    const status =
      outcome.completed + outcome.warning === 0
        ? STATUS.unableToPerformSubOperations
        : STATUS.subOperationsWithFailures;
    respond(status, final, failedList(failedUids, transferSyntax));
  } else {
    respond(outcome.warning > 0 ? STATUS.subOperationsWithFailures : STATUS.success, final);
  }
}

const counts = (o: RetrieveOutcome): SubOperationCounts => ({
  completed: o.completed,
  failed: o.failed,
  warning: o.warning,
});

function readOrNull(ctx: QrContext, instance: RetrieveInstance): Promise<Buffer | null> {
  return ctx.handlers.read(instance).catch(() => null);
}

/** C-MOVE's sink: an association from our AE to the destination, proposing what the instances need. */
export async function moveSink(
  ourAe: string,
  originator: { ae: string; messageId: number },
  instances: RetrieveInstance[],
  destination: { ae: string; host: string; port: number },
): Promise<SubOperationSink> {
  const scu = await StoreScu.associate(
    { host: destination.host, port: destination.port, callingAe: ourAe, calledAe: destination.ae },
    instances.map((i) => ({ sopClassUid: i.sopClassUid, transferSyntaxUid: i.transferSyntaxUid })),
  );
  if (!scu.acceptedAny()) {
    await scu.release().catch(() => scu.abort());
    throw new StoreScuError(`${destination.ae} accepted none of the SOP classes and transfer syntaxes proposed`);
  }
  return {
    store: (i, dataset) => scu.store(i.sopClassUid, i.sopInstanceUid, i.transferSyntaxUid, dataset, originator),
    close: () => scu.release().catch(() => scu.abort()),
  };
}

/** A C-FIND, C-MOVE or C-GET of a Q/R context; `getSink` gives C-GET's sub-operations on the association. */
export async function serveQueryRetrieve(
  qr: QrService,
  exchange: ServiceExchange,
  ctx: QrContext,
  getSink: () => SubOperationSink,
): Promise<void> {
  if (qr.operation === 'find') return answerQrFind(exchange, qr.model, ctx);
  const originator = { ae: ctx.caller.callingAe, messageId: exchange.messageId };
  return answerRetrieve(exchange, qr.model, ctx, qr.operation, (instances, destination) =>
    destination ? moveSink(ctx.ourAe, originator, instances, destination) : Promise.resolve(getSink()),
  );
}
