/**
 * A small DICOM SCU for tests, built on the project's Upper Layer code (ul.ts): associates,
 * sends DIMSE requests with their data sets and collects the responses, releases. It plays the
 * peers DCMTK has no tool for (an MPPS sender) and the exchanges its tools cannot time (a C-CANCEL
 * right after its C-FIND).
 */
import net from 'node:net';
import { TAG, type CommandSet, commandUs, decodeCommand, encodeRequest, encodeResponse } from '../dimse-command.js';
import {
  PDU,
  type AssociateAc,
  type PresentationContextRq,
  type RoleSelection,
  decodeAssociateAc,
  encodeAssociateRq,
  encodeReleaseRq,
} from '../ul.js';
import { decodePData, encodePData } from '../ul-pdata.js';

export interface ScuResponse {
  command: CommandSet;
  status: number;
  dataset: Buffer | null;
}

const PENDING = new Set([0xff00, 0xff01]);

export class TestScu {
  private chunks = Buffer.alloc(0);
  private commandBytes: Buffer[] = [];
  private dataBytes: Buffer[] = [];
  private pendingCommand: CommandSet | null = null;
  private readonly responses: ScuResponse[] = [];
  private readonly pdus: { type: number; body: Buffer }[] = [];
  private wake: (() => void) | null = null;
  private closed = false;
  private nextMessageId = 1;
  ac: AssociateAc | null = null;

  private constructor(private readonly socket: net.Socket) {
    // A request's command and data set leave in separate writes: without this the data set waits
    // for the peer's delayed ACK of the command (~40 ms), on every request.
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.receive(d));
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
    socket.on('error', () => undefined);
  }

  /** Connects and associates; answers the SCU once the A-ASSOCIATE-AC came (throws on a reject). */
  static async associate(
    port: number,
    opts: {
      callingAe: string;
      calledAe?: string;
      contexts: PresentationContextRq[];
      maxPduLength?: number;
      roles?: RoleSelection[];
    },
  ): Promise<TestScu> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const scu = new TestScu(socket);
    socket.write(
      encodeAssociateRq(
        { callingAe: opts.callingAe, calledAe: opts.calledAe ?? 'YYP', contexts: opts.contexts },
        {
          maxPduLength: opts.maxPduLength ?? 16384,
          implementationClassUid: '1.2.3.4',
          implementationVersion: 'TEST_SCU',
          roles: opts.roles ?? [],
        },
      ),
    );
    const answer = await scu.nextPdu();
    if (answer.type !== PDU.associateAc) {
      socket.destroy();
      throw new Error(`association refused (PDU type ${answer.type})`);
    }
    scu.ac = decodeAssociateAc(answer.body);
    return scu;
  }

  /** Answers a request the peer sent on this association (an N-EVENT-REPORT-RQ): its response, no data set. */
  respond(contextId: number, response: Parameters<typeof encodeResponse>[0]): void {
    for (const p of encodePData(contextId, encodeResponse(response), true, 0)) this.socket.write(p);
  }

  /** Sends a request (its message ID assigned here, returned) and, when given, its data set. */
  send(
    contextId: number,
    request: Omit<Parameters<typeof encodeRequest>[0], 'messageId' | 'hasDataset'>,
    dataset?: Buffer,
  ): number {
    const messageId = this.nextMessageId++;
    const command = encodeRequest({ ...request, messageId, hasDataset: !!dataset });
    for (const p of encodePData(contextId, command, true, 0)) this.socket.write(p);
    const max = this.ac?.maxPduLength ?? 0;
    for (const p of dataset ? encodePData(contextId, dataset, false, max) : []) this.socket.write(p);
    return messageId;
  }

  /** The responses to the last request: every pending one, then the final one. */
  async responsesUntilFinal(timeoutMs = 5000): Promise<ScuResponse[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const final = this.responses.findIndex((r) => !PENDING.has(r.status));
      if (final >= 0) return this.responses.splice(0, final + 1);
      if (this.closed) throw new Error('association closed before the final response');
      if (Date.now() > deadline) throw new Error('no final response in time');
      await this.waitForData(deadline);
    }
  }

  /** A-RELEASE-RQ, then waits for the RP. */
  async release(): Promise<void> {
    this.socket.write(encodeReleaseRq());
    const rp = await this.nextPdu();
    if (rp.type !== PDU.releaseRp) throw new Error(`expected A-RELEASE-RP, got PDU type ${rp.type}`);
    this.socket.destroy();
  }

  private async nextPdu(timeoutMs = 5000): Promise<{ type: number; body: Buffer }> {
    const deadline = Date.now() + timeoutMs;
    while (this.pdus.length === 0) {
      if (this.closed) throw new Error('association closed');
      if (Date.now() > deadline) throw new Error('no PDU in time');
      await this.waitForData(deadline);
    }
    return this.pdus.shift()!;
  }

  private waitForData(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()) + 1);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  private receive(d: Buffer): void {
    this.chunks = Buffer.concat([this.chunks, d]);
    while (this.chunks.length >= 6 && this.chunks.length >= 6 + this.chunks.readUInt32BE(2)) {
      const type = this.chunks[0]!;
      const body = this.chunks.subarray(6, 6 + this.chunks.readUInt32BE(2));
      this.chunks = this.chunks.subarray(6 + body.length);
      if (type === PDU.pData) this.pData(body);
      else this.pdus.push({ type, body });
    }
    this.wake?.();
  }

  /** Assembles command and data set fragments into responses. */
  private pData(body: Buffer): void {
    for (const pdv of decodePData(body)) {
      if (pdv.command) {
        this.commandBytes.push(pdv.data);
        if (!pdv.last) continue;
        const command = decodeCommand(Buffer.concat(this.commandBytes));
        this.commandBytes = [];
        if (commandUs(command, TAG.commandDataSetType) === 0x0101) this.push(command, null);
        else this.pendingCommand = command;
      } else {
        this.dataBytes.push(pdv.data);
        if (!pdv.last || !this.pendingCommand) continue;
        this.push(this.pendingCommand, Buffer.concat(this.dataBytes));
        this.dataBytes = [];
        this.pendingCommand = null;
      }
    }
  }

  private push(command: CommandSet, dataset: Buffer | null): void {
    this.responses.push({ command, status: commandUs(command, TAG.status) ?? -1, dataset });
  }
}
