/**
 * A C-STORE SCU: yyp associating with another application entity (a C-MOVE destination, a
 * forwarding target) to send stored instances as they are stored. One request at a time; every
 * wait is bounded, and anything unexpected from the peer aborts the association.
 */
import net from 'node:net';
import { COMMAND, TAG, commandUs, decodeCommand, encodeRequest } from './dimse-command.js';
import { IMPLEMENTATION_CLASS_UID, IMPLEMENTATION_VERSION } from './part10.js';
import { PduReader } from './pdu-reader.js';
import {
  CONTEXT_RESULT,
  PDU,
  decodeAssociateAc,
  encodeAbort,
  encodeAssociateRq,
  encodeReleaseRq,
  type PresentationContextRq,
  type RoleSelection,
} from './ul.js';
import { rewriteLittleEndian, sendableSyntaxes } from './transcode.js';
import { decodePDataChunks, encodePDataBatch } from './ul-pdata.js';

const MAX_PDU = 1_048_576;

/** What to propose: each SOP class with the transfer syntaxes its instances are stored in. */
export interface StoreProposal {
  sopClassUid: string;
  transferSyntaxUid: string;
}

export interface StoreScuOptions {
  host: string;
  port: number;
  callingAe: string;
  calledAe: string;
  /** connecting, associating, each response, releasing: each within this (default 30 s) */
  timeoutMs?: number;
}

export class StoreScuError extends Error {}

/**
 * The presentation contexts for `proposals`: one per (SOP class, transfer syntax) pair, at most
 * 128 (odd ids 1 … 255, PS3.8 9.3.2.2). Pairs past that are not proposed (their sends fail).
 * An uncompressed little endian instance is proposed in both little endian syntaxes, its own first.
 */
export function storeContexts(proposals: readonly StoreProposal[]): PresentationContextRq[] {
  const seen = new Set<string>();
  const out: PresentationContextRq[] = [];
  for (const p of proposals) {
    const id = `${p.sopClassUid} ${p.transferSyntaxUid}`;
    if (seen.has(id) || out.length >= 128) continue;
    seen.add(id);
    // An uncompressed instance may also go in the other little endian syntax (rewritten, transcode.ts).
    out.push({
      id: out.length * 2 + 1,
      abstractSyntax: p.sopClassUid,
      transferSyntaxes: sendableSyntaxes(p.transferSyntaxUid),
    });
  }
  return out;
}

export class StoreScu {
  private readonly reader = new PduReader(MAX_PDU, (type, body) => this.pdu(type, body));
  private readonly accepted = new Map<string, number>();
  private peerMaxPdu = 0;
  private nextMessageId = 1;
  private command: Buffer[] = [];
  private waiting: {
    resolve: (v: { type: number; body: Buffer[]; status?: number }) => void;
    timer: NodeJS.Timeout;
  } | null = null;
  private failure: Error | null = null;

  private constructor(
    private readonly socket: net.Socket,
    private readonly timeoutMs: number,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      try {
        this.reader.push(chunk, () => !socket.destroyed);
      } catch (err) {
        this.fail(err instanceof Error ? err : new StoreScuError('malformed PDU'));
      }
    });
    socket.on('error', (err) => this.fail(new StoreScuError(err.message)));
    socket.on('close', () => this.fail(new StoreScuError('the peer closed the association')));
  }

  /** Connects and associates for `proposals` (C-STORE); throws StoreScuError when the peer cannot be reached or refuses. */
  static associate(opts: StoreScuOptions, proposals: readonly StoreProposal[]): Promise<StoreScu> {
    return StoreScu.open(opts, storeContexts(proposals));
  }

  /** Connects and associates proposing `contexts` (and role selections); throws StoreScuError on failure. */
  static async open(
    opts: StoreScuOptions,
    contexts: PresentationContextRq[],
    roles: readonly RoleSelection[] = [],
  ): Promise<StoreScu> {
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const socket = net.connect({ host: opts.host, port: opts.port });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new StoreScuError(`no connection to ${opts.host}:${opts.port} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(new StoreScuError(`cannot connect to ${opts.host}:${opts.port}: ${err.message}`));
      });
    });
    const scu = new StoreScu(socket, timeoutMs);
    socket.write(
      encodeAssociateRq(
        { callingAe: opts.callingAe, calledAe: opts.calledAe, contexts },
        {
          maxPduLength: MAX_PDU,
          implementationClassUid: IMPLEMENTATION_CLASS_UID,
          implementationVersion: IMPLEMENTATION_VERSION,
          roles,
        },
      ),
    );
    const answer = await scu.next();
    if (answer.type !== PDU.associateAc) {
      socket.destroy();
      throw new StoreScuError(`${opts.calledAe} refused the association`);
    }
    const ac = decodeAssociateAc(Buffer.concat(answer.body));
    scu.peerMaxPdu = ac.maxPduLength;
    for (const c of ac.contexts) {
      const proposed = contexts.find((p) => p.id === c.id);
      if (proposed && c.result === CONTEXT_RESULT.acceptance) {
        scu.accepted.set(`${proposed.abstractSyntax} ${c.transferSyntax || proposed.transferSyntaxes[0]}`, c.id);
      }
    }
    return scu;
  }

  /**
   * The accepted context for an instance of this SOP class stored in this syntax: the same syntax,
   * else (uncompressed) the other little endian one, which the data set is rewritten in.
   */
  private contextFor(sopClassUid: string, transferSyntaxUid: string): { id: number; transferSyntax: string } | null {
    for (const ts of sendableSyntaxes(transferSyntaxUid)) {
      const id = this.accepted.get(`${sopClassUid} ${ts}`);
      if (id !== undefined) return { id, transferSyntax: ts };
    }
    return null;
  }

  /**
   * Sends a request other than C-STORE (an N-EVENT-REPORT) on the accepted context of
   * `abstractSyntax`, its data set written by `dataset` in that context's transfer syntax; answers
   * the response's status, 0x0122 when the peer accepted no such context.
   */
  async request(
    abstractSyntax: string,
    fields: Omit<Parameters<typeof encodeRequest>[0], 'messageId' | 'hasDataset'>,
    dataset: (transferSyntax: string) => Buffer,
  ): Promise<number> {
    const found = [...this.accepted].find(([key]) => key.startsWith(`${abstractSyntax} `));
    if (!found) return 0x0122;
    const [key, contextId] = found;
    return this.send(contextId, fields, dataset(key.slice(abstractSyntax.length + 1)));
  }

  /** A request and its data set on one context, and its response's status. */
  private async send(
    contextId: number,
    fields: Omit<Parameters<typeof encodeRequest>[0], 'messageId' | 'hasDataset'>,
    bytes: Buffer,
  ): Promise<number> {
    const messageId = this.nextMessageId++ & 0xffff;
    const command = encodeRequest({ ...fields, messageId, hasDataset: true });
    this.socket.write(
      encodePDataBatch(
        contextId,
        [
          { command: true, bytes: command },
          { command: false, bytes },
        ],
        this.peerMaxPdu,
      ),
    );
    const answer = await this.next();
    if (answer.status === undefined) throw new StoreScuError('no response');
    return answer.status;
  }

  /** Whether the peer accepted any context at all. */
  acceptedAny(): boolean {
    return this.accepted.size > 0;
  }

  /**
   * Sends one instance's data set (as stored, in `transferSyntaxUid`) and answers the C-STORE-RSP
   * status. Throws StoreScuError when the association fails; a context the peer did not accept is
   * answered 0x0122 (SOP class not supported) without sending.
   */
  async store(
    sopClassUid: string,
    sopInstanceUid: string,
    transferSyntaxUid: string,
    dataset: Buffer,
    moveOriginator?: { ae: string; messageId: number },
  ): Promise<number> {
    const context = this.contextFor(sopClassUid, transferSyntaxUid);
    if (!context) return 0x0122;
    let bytes: Buffer;
    try {
      bytes = rewriteLittleEndian(dataset, transferSyntaxUid, context.transferSyntax);
    } catch {
      return 0xa700; // not rewritable: this instance fails, the association goes on
    }
    return this.send(
      context.id,
      {
        commandField: COMMAND.cStoreRq,
        affectedSopClassUid: sopClassUid,
        affectedSopInstanceUid: sopInstanceUid,
        priority: 0,
        ...(moveOriginator ? { moveOriginator } : {}),
      },
      bytes,
    );
  }

  /** A-RELEASE-RQ and its RP; the socket is closed either way. */
  async release(): Promise<void> {
    if (this.failure) return;
    this.socket.write(encodeReleaseRq());
    try {
      await this.next();
    } finally {
      this.socket.destroy();
    }
  }

  abort(): void {
    if (!this.socket.destroyed) this.socket.end(encodeAbort(0, 0));
    this.socket.destroy();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) {
      clearTimeout(waiting.timer);
      waiting.resolve({ type: -1, body: [] });
    }
    this.socket.destroy();
  }

  /** The next PDU that is not a data fragment (A-ASSOCIATE-AC, RJ, RELEASE-RP) or a whole response. */
  private next(): Promise<{ type: number; body: Buffer[]; status?: number }> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        this.abort();
        reject(new StoreScuError(`no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.waiting = {
        timer,
        resolve: (v) => {
          if (v.type === -1) reject(this.failure ?? new StoreScuError('association failed'));
          else resolve(v);
        },
      };
    });
  }

  private deliver(v: { type: number; body: Buffer[]; status?: number }): void {
    const waiting = this.waiting;
    if (!waiting) return this.fail(new StoreScuError(`unexpected PDU type 0x${v.type.toString(16)}`));
    this.waiting = null;
    clearTimeout(waiting.timer);
    waiting.resolve(v);
  }

  private pdu(type: number, body: Buffer[]): void {
    if (type === PDU.abort) return this.fail(new StoreScuError('the peer aborted the association'));
    if (type !== PDU.pData) return this.deliver({ type, body });
    for (const pdv of decodePDataChunks(body)) {
      if (!pdv.command) continue;
      this.command.push(...pdv.data);
      if (!pdv.last) continue;
      const command = decodeCommand(Buffer.concat(this.command));
      this.command = [];
      // A response (C-STORE-RSP, N-EVENT-REPORT-RSP) to the one request outstanding.
      if (((commandUs(command, TAG.commandField) ?? 0) & 0x8000) !== 0) {
        this.deliver({ type, body: [], status: commandUs(command, TAG.status) ?? 0xc000 });
      }
    }
  }
}
