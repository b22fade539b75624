import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { MPPS_SOP_CLASS, MPPS_STATUS, type MppsEvent, type MppsResult, parseMppsAttributes } from './mpps.js';
import {
  MWL_FIND_SOP_CLASS,
  type WorklistItem,
  type WorklistQuery,
  parseWorklistQuery,
  worklistAnswer,
} from './mwl.js';
import { DicomError } from './parse.js';
import { IMPLEMENTATION_CLASS_UID, IMPLEMENTATION_VERSION, toPart10 } from './part10.js';
import {
  APPLICATION_CONTEXT,
  COMMAND,
  CONTEXT_RESULT,
  NO_DATASET,
  PDU,
  REJECT,
  TAG,
  UlError,
  commandUid,
  commandUs,
  decodeAssociateRq,
  decodeCommand,
  decodePDataChunks,
  encodeAbort,
  encodeAssociateAc,
  encodeAssociateRj,
  encodeCommandPData,
  encodePData,
  encodeReleaseRp,
  encodeResponse,
  type AssociateRq,
  type CommandSet,
} from './ul.js';

/** Transfer syntaxes accepted as offered (stored as received, never transcoded), most preferred first. */
export const ACCEPTED_SYNTAXES = [
  '1.2.840.10008.1.2.1', // Explicit VR Little Endian
  '1.2.840.10008.1.2', // Implicit VR Little Endian
  '1.2.840.10008.1.2.4.70', // JPEG lossless SV1
  '1.2.840.10008.1.2.4.57', // JPEG lossless
  '1.2.840.10008.1.2.4.50', // JPEG baseline
  '1.2.840.10008.1.2.4.51', // JPEG extended
  '1.2.840.10008.1.2.4.80', // JPEG-LS lossless
  '1.2.840.10008.1.2.4.81', // JPEG-LS near-lossless
  '1.2.840.10008.1.2.4.90', // JPEG 2000 lossless
  '1.2.840.10008.1.2.4.91', // JPEG 2000
  '1.2.840.10008.1.2.5', // RLE lossless
  '1.2.840.10008.1.2.2', // Explicit VR Big Endian (retired, still sent by old modalities)
];

const VERIFICATION = '1.2.840.10008.1.1';
const STORAGE_PREFIX = '1.2.840.10008.5.1.4.1.1.';
/** Worklist identifiers and MPPS attribute lists are read in these only (never compressed). */
const UNCOMPRESSED_LE = ['1.2.840.10008.1.2.1', '1.2.840.10008.1.2'];
/** A C-FIND's answers yield to incoming PDUs (a C-CANCEL) every this many responses. */
const FIND_YIELD_EVERY = 16;

const STATUS = {
  success: 0x0000,
  pending: 0xff00,
  cancel: 0xfe00,
  /** C-FIND: identifier does not match SOP class */
  identifierDoesNotMatch: 0xa900,
  /** C-FIND: unable to process */
  unableToProcess: 0xc000,
  unrecognizedOperation: 0x0211,
} as const;

/** Largest PDU we receive; a C-STORE of a 512×512 CT slice arrives in one. */
export const MAX_PDU_LENGTH = 1_048_576;
/** An A-ASSOCIATE-RQ is a few hundred bytes; anything this large is not one. */
const MAX_ASSOCIATE_RQ = 65_536;
/** Largest dataset one C-STORE may carry (the upload limit). */
const MAX_DATASET_BYTES = 2 * 1024 * 1024 * 1024 - 1;
/** Largest worklist identifier or MPPS attribute list (a few kB in practice). */
const MAX_QUERY_BYTES = 1_048_576;
/** ARTIM: an association must be requested this soon after connecting. */
const ARTIM_MS = 30_000;
/** An association that says nothing this long is aborted. */
const IDLE_MS = 10 * 60_000;

export interface DimseHandlers {
  /** The organization a calling AE stores into, or the reason to refuse the association. */
  resolveCaller(
    callingAe: string,
    calledAe: string,
    remoteAddress: string,
  ): Promise<{ bucketId: string } | { refuse: 'calling' | 'called' }>;
  store(bucketId: string, part10: Buffer): Promise<void>;
  onRefused?(callingAe: string, calledAe: string, remoteAddress: string, reason: string): void;
  /**
   * Modality Worklist C-FIND: the scheduled steps answering `query` for this caller (its
   * organization and AE title). Without it the worklist presentation context is refused.
   */
  worklist?(caller: DimseCaller, query: WorklistQuery): Promise<WorklistItem[]>;
  /** MPPS N-CREATE / N-SET: what the step's event did. Without it the MPPS context is refused. */
  mpps?(caller: DimseCaller, event: MppsEvent): Promise<MppsResult>;
}

/** Who is on the other end of an association: the organization resolveCaller chose and the AE title. */
export interface DimseCaller {
  bucketId: string;
  callingAe: string;
}

interface Context {
  abstractSyntax: string;
  transferSyntax: string;
}

interface Message {
  contextId: number;
  command: CommandSet;
  data: Buffer[];
}

/**
 * One association over one socket: the Upper Layer state machine (PS3.8 §9.2) reduced to an
 * acceptor's needs. Incoming PDUs are cut from the byte stream without copying, as views into the
 * network chunks they arrived in; a C-STORE's dataset fragments are copied once, into the Part 10
 * file handed to the ingest. Messages are handled one after another in arrival order.
 */
class Association {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private state: 'idle' | 'negotiating' | 'associated' | 'closing' = 'idle';
  private caller: DimseCaller | null = null;
  /** The peer's maximum PDU length (0: unlimited): our data sets are cut to it. */
  private peerMaxPdu = 0;
  /** The worklist C-FINDs received and not yet answered, by message ID: whether a C-CANCEL came. */
  private readonly finds = new Map<number, { cancelled: boolean }>();
  private readonly contexts = new Map<number, Context>();
  private command: Buffer[] = [];
  private current: { contextId: number; command: CommandSet; data: Buffer[]; size: number } | null = null;
  private chain: Promise<void> = Promise.resolve();
  private readonly remote: string;

  constructor(
    private readonly socket: net.Socket,
    private readonly handlers: DimseHandlers,
  ) {
    this.remote = socket.remoteAddress ?? '';
    socket.setNoDelay(true);
    socket.setTimeout(ARTIM_MS);
    socket.on('timeout', () => this.abort(0));
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      try {
        this.receive(chunk);
      } catch (err) {
        // A malformed or unexpected PDU ends the association (A-ABORT, provider, reason per PS3.8).
        this.abort(err instanceof UlError ? 2 : 0);
      }
    });
  }

  private receive(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= 6 && this.state !== 'closing') {
      const head = this.chunks[0]!.length >= 6 ? this.chunks[0]! : this.flatten();
      const type = head[0]!;
      const length = head.readUInt32BE(2);
      const limit = type === PDU.associateRq ? MAX_ASSOCIATE_RQ : MAX_PDU_LENGTH + 6;
      if (length > limit) throw new UlError(`PDU of ${length} bytes exceeds ${limit}`);
      if (this.buffered < 6 + length) return;
      const parts = this.take(6 + length);
      parts[0] = parts[0]!.subarray(6);
      if (parts[0].length === 0) parts.shift();
      this.pdu(type, parts);
    }
  }

  /** The next `n` buffered bytes as views into the received chunks (nothing copied). */
  private take(n: number): Buffer[] {
    const parts: Buffer[] = [];
    while (n > 0) {
      const first = this.chunks[0]!;
      if (first.length <= n) {
        parts.push(first);
        this.chunks.shift();
        n -= first.length;
        this.buffered -= first.length;
      } else {
        parts.push(first.subarray(0, n));
        this.chunks[0] = first.subarray(n);
        this.buffered -= n;
        n = 0;
      }
    }
    return parts;
  }

  private flatten(): Buffer {
    const all = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [all];
    return all;
  }

  /** One whole PDU, its body given as the views it arrived in. */
  private pdu(type: number, body: Buffer[]): void {
    switch (type) {
      case PDU.associateRq:
        if (this.state !== 'idle') throw new UlError('unexpected A-ASSOCIATE-RQ');
        this.state = 'negotiating';
        this.negotiate(decodeAssociateRq(body.length === 1 ? body[0]! : Buffer.concat(body)));
        return;
      case PDU.pData:
        if (this.state !== 'associated') throw new UlError('P-DATA-TF outside an association');
        for (const pdv of decodePDataChunks(body)) this.pdv(pdv.contextId, pdv.command, pdv.last, pdv.data);
        return;
      case PDU.releaseRq:
        if (this.state !== 'associated') throw new UlError('unexpected A-RELEASE-RQ');
        this.state = 'closing';
        // Answer once every message received before the release has been answered.
        this.chain = this.chain.then(() => {
          this.socket.end(encodeReleaseRp());
        });
        return;
      case PDU.abort:
        this.state = 'closing';
        this.socket.destroy();
        return;
      default:
        throw new UlError(`unexpected PDU type 0x${type.toString(16)}`);
    }
  }

  private negotiate(rq: AssociateRq): void {
    if (rq.applicationContext !== APPLICATION_CONTEXT) {
      this.reject(REJECT.permanent, REJECT.sourceUser, REJECT.applicationContextNotSupported);
      return;
    }
    this.handlers
      .resolveCaller(rq.callingAe, rq.calledAe, this.remote)
      .then((decision) => {
        if ('refuse' in decision) {
          this.handlers.onRefused?.(rq.callingAe, rq.calledAe, this.remote, decision.refuse);
          const reason = decision.refuse === 'called' ? REJECT.calledAeNotRecognized : REJECT.callingAeNotRecognized;
          this.reject(REJECT.permanent, REJECT.sourceUser, reason);
          return;
        }
        this.caller = { bucketId: decision.bucketId, callingAe: rq.callingAe };
        this.peerMaxPdu = rq.maxPduLength;
        const answers = rq.contexts.map((c) => {
          const supported = this.supports(c.abstractSyntax);
          const offered = c.abstractSyntax.startsWith(STORAGE_PREFIX) ? ACCEPTED_SYNTAXES : UNCOMPRESSED_LE;
          const chosen = offered.find((ts) => c.transferSyntaxes.includes(ts));
          const result = !supported
            ? CONTEXT_RESULT.abstractSyntaxNotSupported
            : chosen
              ? CONTEXT_RESULT.acceptance
              : CONTEXT_RESULT.transferSyntaxesNotSupported;
          if (result === CONTEXT_RESULT.acceptance) {
            this.contexts.set(c.id, { abstractSyntax: c.abstractSyntax, transferSyntax: chosen! });
          }
          return { id: c.id, result, transferSyntax: chosen ?? c.transferSyntaxes[0] ?? ACCEPTED_SYNTAXES[1]! };
        });
        this.state = 'associated';
        this.socket.setTimeout(IDLE_MS);
        this.socket.write(
          encodeAssociateAc(rq, answers, {
            maxPduLength: MAX_PDU_LENGTH,
            implementationClassUid: IMPLEMENTATION_CLASS_UID,
            implementationVersion: IMPLEMENTATION_VERSION,
          }),
        );
      })
      .catch(() => this.reject(REJECT.transient, REJECT.sourceProviderPresentation, REJECT.temporaryCongestion));
  }

  /** Verification and storage always; the worklist and MPPS when their handlers are given. */
  private supports(abstractSyntax: string): boolean {
    if (abstractSyntax === VERIFICATION || abstractSyntax.startsWith(STORAGE_PREFIX)) return true;
    if (abstractSyntax === MWL_FIND_SOP_CLASS) return this.handlers.worklist !== undefined;
    if (abstractSyntax === MPPS_SOP_CLASS) return this.handlers.mpps !== undefined;
    return false;
  }

  private reject(result: number, source: number, reason: number): void {
    this.state = 'closing';
    this.socket.end(encodeAssociateRj(result, source, reason));
  }

  private abort(reason: number): void {
    if (this.socket.destroyed) return;
    this.state = 'closing';
    this.socket.end(encodeAbort(2, reason));
    setTimeout(() => this.socket.destroy(), 1000).unref();
  }

  private pdv(contextId: number, isCommand: boolean, last: boolean, data: Buffer[]): void {
    if (!this.contexts.has(contextId)) throw new UlError(`presentation context ${contextId} was not accepted`);
    if (isCommand) {
      if (this.current) throw new UlError('command fragment inside a dataset');
      this.command.push(...data);
      if (!last) return;
      const command = decodeCommand(Buffer.concat(this.command));
      this.command = [];
      const message = { contextId, command, data: [] as Buffer[], size: 0 };
      const field = commandUs(command, TAG.commandField);
      if (field === COMMAND.cancelRq) {
        // Not queued behind the C-FIND it cancels: noted now, seen by the C-FIND's answering loop.
        const find = this.finds.get(commandUs(command, TAG.messageIdBeingRespondedTo) ?? -1);
        if (find) find.cancelled = true;
        return;
      }
      if (field === COMMAND.cFindRq && this.contexts.get(contextId)!.abstractSyntax === MWL_FIND_SOP_CLASS) {
        this.finds.set(commandUs(command, TAG.messageId) ?? 0, { cancelled: false });
      }
      if (commandUs(command, TAG.commandDataSetType) === NO_DATASET) this.dispatch(message);
      else this.current = message;
      return;
    }
    const message = this.current;
    if (!message || message.contextId !== contextId) throw new UlError('dataset fragment without its command');
    for (const d of data) message.size += d.length;
    const storage = this.contexts.get(contextId)!.abstractSyntax.startsWith(STORAGE_PREFIX);
    if (message.size > (storage ? MAX_DATASET_BYTES : MAX_QUERY_BYTES)) throw new UlError('dataset too large');
    // The fragments are views into received chunks that are otherwise done with: keep the views.
    message.data.push(...data);
    if (!last) return;
    this.current = null;
    this.dispatch(message);
  }

  private dispatch(message: Message): void {
    this.chain = this.chain.then(() => this.handle(message)).catch(() => this.abort(0));
  }

  private async handle(message: Message): Promise<void> {
    const { command, contextId } = message;
    const field = commandUs(command, TAG.commandField);
    const messageId = commandUs(command, TAG.messageId) ?? 0;
    const context = this.contexts.get(contextId)!;
    if (field === COMMAND.cFindRq && context.abstractSyntax === MWL_FIND_SOP_CLASS) {
      return this.find(contextId, context, messageId, message);
    }
    if ((field === COMMAND.nCreateRq || field === COMMAND.nSetRq) && context.abstractSyntax === MPPS_SOP_CLASS) {
      return this.mpps(field, contextId, context, messageId, message);
    }
    let status: number;
    let sopInstanceUid: string | undefined;
    if (field === COMMAND.cEchoRq) {
      status = STATUS.success;
    } else if (field === COMMAND.cStoreRq) {
      sopInstanceUid = commandUid(command, TAG.affectedSopInstanceUid) ?? '';
      status = await this.store(context, commandUid(command, TAG.affectedSopClassUid) ?? '', sopInstanceUid, message);
    } else {
      status = STATUS.unrecognizedOperation;
    }
    this.respond(contextId, {
      commandField: (field ?? 0) | 0x8000,
      messageId,
      status,
      sopClassUid: commandUid(command, TAG.affectedSopClassUid) ?? context.abstractSyntax,
      sopInstanceUid,
    });
  }

  /** Sends a response command set and, when given, its data set cut to the peer's PDU limit. */
  private respond(contextId: number, response: Parameters<typeof encodeResponse>[0], dataset?: Buffer): boolean {
    if (this.socket.destroyed) return false;
    let flushed = this.socket.write(
      encodeCommandPData(contextId, encodeResponse({ ...response, hasDataset: !!dataset })),
    );
    for (const p of dataset ? encodePData(contextId, dataset, false, this.peerMaxPdu) : []) {
      flushed = this.socket.write(p);
    }
    return flushed;
  }

  /**
   * Modality Worklist C-FIND: one pending response (0xFF00) per item with its identifier, then
   * success; cancelled (0xFE00) when a C-CANCEL came meanwhile; 0xA900 for an identifier that is
   * no worklist query, 0xC000 when the handler fails.
   */
  private async find(contextId: number, context: Context, messageId: number, message: Message): Promise<void> {
    const state = this.finds.get(messageId) ?? { cancelled: false };
    try {
      await this.answerFind(contextId, context, messageId, message, state);
    } finally {
      this.finds.delete(messageId);
    }
  }

  private async answerFind(
    contextId: number,
    context: Context,
    messageId: number,
    message: Message,
    state: { cancelled: boolean },
  ): Promise<void> {
    const answer = (status: number, dataset?: Buffer) =>
      this.respond(contextId, { commandField: 0x8020, messageId, status, sopClassUid: MWL_FIND_SOP_CLASS }, dataset);
    let query: WorklistQuery;
    try {
      if (message.data.length === 0) throw new Error('C-FIND without an identifier');
      query = parseWorklistQuery(Buffer.concat(message.data), context.transferSyntax);
    } catch {
      answer(STATUS.identifierDoesNotMatch);
      return;
    } finally {
      message.data = [];
    }
    let items: WorklistItem[];
    try {
      items = await this.handlers.worklist!(this.caller!, query);
    } catch {
      answer(STATUS.unableToProcess);
      return;
    }
    let sent = 0;
    for (const item of items) {
      if (state.cancelled || this.socket.destroyed) break;
      let identifier: Buffer;
      try {
        identifier = worklistAnswer(item, query, context.transferSyntax);
      } catch {
        answer(STATUS.unableToProcess);
        return;
      }
      // Let incoming PDUs (a C-CANCEL) in now and then, and wait while the socket's buffer is full.
      if (!answer(STATUS.pending, identifier)) await this.drained();
      else if (++sent % FIND_YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    answer(state.cancelled ? STATUS.cancel : STATUS.success);
  }

  /** Resolves when the socket's write buffer has drained, or the socket closed. */
  private drained(): Promise<void> {
    if (this.socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.socket.off('drain', done).off('close', done);
        resolve();
      };
      this.socket.on('drain', done).on('close', done);
    });
  }

  /**
   * MPPS N-CREATE / N-SET: the handler's MppsResult picks the status (PS3.4 F.7); an attribute
   * list that is no MPPS one, or a failing handler, answers processing failure (0x0110).
   */
  private async mpps(field: number, contextId: number, context: Context, messageId: number, message: Message) {
    const { command } = message;
    const kind = field === COMMAND.nCreateRq ? 'create' : 'set';
    // N-CREATE may leave the instance UID to the SCP (PS3.7 10.1.5); N-SET names it as requested.
    const sopInstanceUid =
      kind === 'create'
        ? (commandUid(command, TAG.affectedSopInstanceUid) ?? newUid())
        : (commandUid(command, TAG.requestedSopInstanceUid) ?? '');
    const answer = (status: number, errorComment?: string) =>
      this.respond(contextId, {
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
        attributes: parseMppsAttributes(Buffer.concat(message.data), context.transferSyntax),
      };
    } catch (err) {
      return void answer(MPPS_STATUS.processingFailure, err instanceof Error ? err.message : undefined);
    } finally {
      message.data = [];
    }
    let result: MppsResult;
    try {
      result = await this.handlers.mpps!(this.caller!, event);
    } catch {
      result = 'processingFailure';
    }
    answer(MPPS_STATUS[result] ?? MPPS_STATUS.processingFailure);
  }

  private async store(context: Context, sopClassUid: string, sopInstanceUid: string, message: Message) {
    if (!this.caller || message.data.length === 0 || !sopInstanceUid) return 0xc000;
    const part10 = toPart10(message.data, { sopClassUid, sopInstanceUid, transferSyntaxUid: context.transferSyntax });
    message.data = [];
    try {
      await this.handlers.store(this.caller.bucketId, part10);
      return 0x0000;
    } catch (err) {
      return err instanceof DicomError ? 0xa900 : 0xa700;
    }
  }
}

/** A UID for an instance the SCP creates: 2.25 and a random UUID as an integer (PS3.5 B.2). */
function newUid(): string {
  return `2.25.${BigInt(`0x${randomUUID().replaceAll('-', '')}`).toString()}`;
}

/**
 * C-ECHO and C-STORE SCP, with the Modality Worklist (C-FIND) and MPPS (N-CREATE, N-SET) when
 * their handlers are given, on `port` (and `host`, all interfaces when unset). The handlers decide
 * who may associate (the called AE title and each calling AE's organization); refusals are
 * reported to onRefused.
 */
export function startDimse(
  port: number,
  handlers: DimseHandlers,
  host?: string,
): Promise<{ close(): void; port: number }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    new Association(socket, handlers);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as net.AddressInfo;
      resolve({
        port: address.port,
        close: () => {
          server.close();
          for (const s of sockets) s.destroy();
        },
      });
    });
  });
}
