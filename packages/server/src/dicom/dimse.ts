import type net from 'node:net';
import {
  COMMAND,
  type CommandSet,
  NO_DATASET,
  STATUS,
  TAG,
  commandUid,
  commandUs,
  decodeCommand,
  encodeResponse,
} from './dimse-command.js';
import { COMMITMENT_SOP_CLASS } from './commitment.js';
import { answerCommitment, sameAssociation } from './dimse-commitment.js';
import type { DimseCaller, DimseHandlers } from './dimse-handlers.js';
import { type AcceptedContext, STORAGE_PREFIX, negotiateContexts } from './dimse-negotiation.js';
import { certificateRefuses, dimseServer, type DimseTls } from './dimse-tls.js';
import { OutgoingRequests } from './dimse-outgoing.js';
import { QR_COMMAND, type QrService, serveQueryRetrieve } from './dimse-qr.js';
import { type ServiceExchange, type ServiceMessage, answerMpps, answerWorklistFind } from './dimse-services.js';
import { MPPS_SOP_CLASS, type MppsEvent } from './mpps.js';
import { MWL_FIND_SOP_CLASS } from './mwl.js';
import { DicomError } from './parse.js';
import { IMPLEMENTATION_CLASS_UID, IMPLEMENTATION_VERSION, toPart10 } from './part10.js';
import { PduReader } from './pdu-reader.js';
import { qrService } from './qr.js';
import {
  APPLICATION_CONTEXT,
  PDU,
  REJECT,
  UlError,
  decodeAssociateRq,
  encodeAbort,
  encodeAssociateAc,
  encodeAssociateRj,
  encodeReleaseRp,
  type AssociateRq,
} from './ul.js';
import { decodePDataChunks, encodePDataBatch } from './ul-pdata.js';

export { ACCEPTED_SYNTAXES } from './dimse-negotiation.js';
export type { DimseCaller, DimseHandlers } from './dimse-handlers.js';

const VERIFICATION = '1.2.840.10008.1.1';
/** Largest PDU we receive; a C-STORE of a 512×512 CT slice arrives in one. */
export const MAX_PDU_LENGTH = 1_048_576;
/** Largest dataset one C-STORE may carry (the upload limit). */
const MAX_DATASET_BYTES = 2 * 1024 * 1024 * 1024 - 1;
/** Largest worklist identifier or MPPS attribute list (a few kB in practice). */
const MAX_QUERY_BYTES = 1_048_576;
/** ARTIM: an association must be requested this soon after connecting. */
const ARTIM_MS = 30_000;
/** An association that says nothing this long is aborted. */
const IDLE_MS = 10 * 60_000;

interface Message extends ServiceMessage {
  contextId: number;
}

/**
 * One association over one socket: the Upper Layer state machine (PS3.8 §9.2) reduced to an
 * acceptor's needs. Incoming PDUs are cut from the byte stream without copying (pdu-reader.ts),
 * as views into the network chunks they arrived in; a C-STORE's dataset fragments are copied
 * once, into the Part 10 file handed to the ingest. Messages are handled one after another in
 * arrival order.
 */
class Association {
  private readonly reader = new PduReader(MAX_PDU_LENGTH, (type, body) => this.pdu(type, body));
  private state: 'idle' | 'negotiating' | 'associated' | 'closing' = 'idle';
  private caller: DimseCaller | null = null;
  /** The peer's maximum PDU length (0: unlimited): our data sets are cut to it. */
  private peerMaxPdu = 0;
  /** The C-FINDs, C-MOVEs and C-GETs received and not yet answered, by message ID: whether a C-CANCEL came. */
  private readonly finds = new Map<number, { cancelled: boolean }>();
  /** Requests we send on this association (C-GET's C-STOREs, a commitment report) awaiting their responses. */
  private readonly outgoing: OutgoingRequests;
  private readonly contexts = new Map<number, AcceptedContext>();
  private command: Buffer[] = [];
  private current: { contextId: number; command: CommandSet; data: Buffer[]; size: number } | null = null;
  private chain: Promise<void> = Promise.resolve();
  private readonly remote: string;

  constructor(
    private readonly socket: net.Socket,
    private readonly handlers: DimseHandlers,
    private readonly secure?: DimseTls,
  ) {
    this.remote = socket.remoteAddress ?? '';
    this.outgoing = new OutgoingRequests(socket);
    socket.setNoDelay(true);
    socket.setTimeout(ARTIM_MS);
    socket.on('timeout', () => this.abort(0));
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      try {
        this.reader.push(chunk, () => this.state !== 'closing');
      } catch (err) {
        // A malformed or unexpected PDU ends the association (A-ABORT, provider, reason per PS3.8).
        this.abort(err instanceof UlError ? 2 : 0);
      }
    });
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
      .then((resolved) => {
        const decision = certificateRefuses(this.socket, rq.callingAe, this.secure)
          ? { refuse: 'calling' as const }
          : resolved;
        if ('refuse' in decision) {
          this.handlers.onRefused?.(rq.callingAe, rq.calledAe, this.remote, decision.refuse);
          const reason = decision.refuse === 'called' ? REJECT.calledAeNotRecognized : REJECT.callingAeNotRecognized;
          this.reject(REJECT.permanent, REJECT.sourceUser, reason);
          return;
        }
        this.caller = { bucketId: decision.bucketId, callingAe: rq.callingAe, remoteAddress: this.remote };
        this.peerMaxPdu = rq.maxPduLength;
        const { answers, accepted, roles } = negotiateContexts(rq, (a) => this.supports(a));
        for (const [id, context] of accepted) this.contexts.set(id, context);
        this.state = 'associated';
        this.socket.setTimeout(IDLE_MS);
        this.socket.write(
          encodeAssociateAc(rq, answers, {
            maxPduLength: MAX_PDU_LENGTH,
            implementationClassUid: IMPLEMENTATION_CLASS_UID,
            implementationVersion: IMPLEMENTATION_VERSION,
            roles,
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
    if (qrService(abstractSyntax)) return this.handlers.queryRetrieve !== undefined;
    if (abstractSyntax === COMMITMENT_SOP_CLASS) return this.handlers.commitment !== undefined;
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
      if (field !== undefined && field & 0x8000) {
        // A response to our C-STORE sub-operation (C-GET); it carries no data set.
        this.outgoing.responded(command);
        return;
      }
      const abstractSyntax = this.contexts.get(contextId)!.abstractSyntax;
      if (field === COMMAND.cFindRq || field === COMMAND.cMoveRq || field === COMMAND.cGetRq) {
        if (abstractSyntax === MWL_FIND_SOP_CLASS || qrService(abstractSyntax)) {
          this.finds.set(commandUs(command, TAG.messageId) ?? 0, { cancelled: false });
        }
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
      return this.find(this.exchange(contextId, context, messageId, message));
    }
    if (field === COMMAND.nActionRq && context.abstractSyntax === COMMITMENT_SOP_CLASS && this.handlers.commitment) {
      return this.commit(contextId, context, this.exchange(contextId, context, messageId, message));
    }
    const qr = qrService(context.abstractSyntax);
    if (qr && this.handlers.queryRetrieve && QR_COMMAND[qr.operation] === field) {
      return this.queryRetrieve(qr, this.exchange(contextId, context, messageId, message));
    }
    if ((field === COMMAND.nCreateRq || field === COMMAND.nSetRq) && context.abstractSyntax === MPPS_SOP_CLASS) {
      const mpps = (event: MppsEvent) => this.handlers.mpps!(this.caller!, event);
      return answerMpps(this.exchange(contextId, context, messageId, message), field, mpps);
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

  /**
   * Sends a response command set, or (with `datasets`) one response per data set, each cut to the
   * peer's PDU limit: a C-FIND's pending answers go out many to a write.
   */
  private respond(contextId: number, response: Parameters<typeof encodeResponse>[0], datasets: Uint8Array[] = []) {
    if (this.socket.destroyed) return false;
    // What is answered in one go (a command and its data set, a worklist's batch of items and the
    // final status) leaves in one send: Nagle is off, and each write was a segment and a system call.
    if (!this.socket.writableCorked) {
      this.socket.cork();
      process.nextTick(() => this.socket.uncork());
    }
    const command = encodeResponse({ ...response, hasDataset: datasets.length > 0 });
    const parts: { command: boolean; bytes: Uint8Array }[] =
      datasets.length === 0 ? [{ command: true, bytes: command }] : [];
    for (const bytes of datasets) parts.push({ command: true, bytes: command }, { command: false, bytes });
    return this.socket.write(encodePDataBatch(contextId, parts, this.peerMaxPdu));
  }

  /** A worklist C-FIND (dimse-services.ts); its cancel flag is forgotten once it is answered. */
  private async find(exchange: ServiceExchange): Promise<void> {
    const state = this.finds.get(exchange.messageId) ?? { cancelled: false };
    try {
      await answerWorklistFind(exchange, (query) => this.handlers.worklist!(this.caller!, query), state);
    } finally {
      this.finds.delete(exchange.messageId);
    }
  }

  /** A storage commitment request (dimse-commitment.ts); its report on this association when the requestor took that role. */
  private commit(contextId: number, context: AcceptedContext, exchange: ServiceExchange): Promise<void> {
    const same = context.requestorIsScp ? sameAssociation(this.outgoing, contextId, context, this.peerMaxPdu) : null;
    const ourAe = this.handlers.aeTitle ?? 'YYP';
    return answerCommitment(exchange, { caller: this.caller!, ourAe, handlers: this.handlers.commitment!, same });
  }

  /** A Q/R C-FIND, C-MOVE or C-GET (dimse-qr.ts); its cancel flag is forgotten once it is answered. */
  private async queryRetrieve(qr: QrService, exchange: ServiceExchange): Promise<void> {
    const state = this.finds.get(exchange.messageId) ?? { cancelled: false };
    const ctx = {
      ourAe: this.handlers.aeTitle ?? 'YYP',
      caller: this.caller!,
      handlers: this.handlers.queryRetrieve!,
      state,
    };
    try {
      await serveQueryRetrieve(qr, exchange, ctx, () => this.outgoing.storeSink(this.contexts, this.peerMaxPdu));
    } finally {
      this.finds.delete(exchange.messageId);
    }
  }

  /** What the worklist and MPPS services (dimse-services.ts) need of this association for `message`. */
  private exchange(contextId: number, context: AcceptedContext, messageId: number, message: Message): ServiceExchange {
    return {
      transferSyntax: context.transferSyntax,
      messageId,
      message,
      respond: (response, dataset) => this.respond(contextId, response, dataset ? [dataset] : []),
      respondEach: (response, datasets) => this.respond(contextId, response, datasets),
      drained: () => this.drained(),
      closed: () => this.socket.destroyed,
    };
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

  private async store(context: AcceptedContext, sopClassUid: string, sopInstanceUid: string, message: Message) {
    if (!this.caller || message.data.length === 0 || !sopInstanceUid) return 0xc000;
    const part10 = toPart10(message.data, { sopClassUid, sopInstanceUid, transferSyntaxUid: context.transferSyntax });
    message.data = [];
    try {
      await this.handlers.store(this.caller.bucketId, part10, this.caller.callingAe);
      return 0x0000;
    } catch (err) {
      return err instanceof DicomError ? 0xa900 : 0xa700;
    }
  }
}

/**
 * C-ECHO and C-STORE SCP, with the Modality Worklist (C-FIND), MPPS (N-CREATE, N-SET) and
 * Query/Retrieve when their handlers are given, on `port` (and `host`, all interfaces when unset),
 * over TLS when `secure` is given (dimse-tls.ts). The handlers decide
 * who may associate (the called AE title and each calling AE's organization); refusals are
 * reported to onRefused.
 */
export function startDimse(
  port: number,
  handlers: DimseHandlers,
  host?: string,
  secure?: DimseTls,
): Promise<{ close(): void; port: number }> {
  const sockets = new Set<net.Socket>();
  const server = dimseServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    new Association(socket, handlers, secure);
  }, secure);
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
