/**
 * Requests yyp sends on an association it accepted, and their responses: C-GET's C-STORE
 * sub-operations, and a storage commitment's N-EVENT-REPORT on the requestor's association.
 */
import type { Socket } from 'node:net';
import { COMMAND, TAG, commandUs, encodeRequest, type CommandSet } from './dimse-command.js';
import type { AcceptedContext } from './dimse-negotiation.js';
import type { RetrieveInstance, SubOperationSink } from './dimse-qr.js';
import { rewriteLittleEndian, sendableSyntaxes } from './transcode.js';
import { encodePDataBatch } from './ul-pdata.js';

export class OutgoingRequests {
  private readonly waiting = new Map<number, (status: number) => void>();
  private nextMessageId = 1;

  constructor(private readonly socket: Socket) {}

  /** A response received (C-STORE-RSP, N-EVENT-REPORT-RSP): the request it answers is done. */
  responded(command: CommandSet): void {
    this.waiting.get(commandUs(command, TAG.messageIdBeingRespondedTo) ?? -1)?.(
      commandUs(command, TAG.status) ?? 0xc000,
    );
  }

  /**
   * C-GET's sub-operations: each instance sent on a context of its SOP class and stored transfer
   * syntax where the requestor took the SCP role, or an uncompressed one in the other little endian
   * syntax, rewritten (0x0122, SOP class not supported, without one).
   */
  storeSink(contexts: ReadonlyMap<number, AcceptedContext>, peerMaxPdu: number): SubOperationSink {
    return {
      store: (instance: RetrieveInstance, dataset: Buffer) => {
        // The instance's own syntax, else (uncompressed) the other little endian one, rewritten.
        const stored = instance.transferSyntaxUid;
        const found = sendableSyntaxes(stored)
          .map((ts) =>
            [...contexts].find(
              ([, c]) => c.requestorIsScp && c.abstractSyntax === instance.sopClassUid && c.transferSyntax === ts,
            ),
          )
          .find((c) => c !== undefined);
        if (!found || this.socket.destroyed) return Promise.resolve(0x0122);
        const [contextId, context] = found;
        let bytes: Buffer;
        try {
          bytes = rewriteLittleEndian(dataset, stored, context.transferSyntax);
        } catch {
          return Promise.resolve(0xa700);
        }
        return this.request(
          contextId,
          {
            commandField: COMMAND.cStoreRq,
            affectedSopClassUid: instance.sopClassUid,
            affectedSopInstanceUid: instance.sopInstanceUid,
            priority: 0,
          },
          bytes,
          peerMaxPdu,
        );
      },
      close: () => Promise.resolve(),
    };
  }

  /** Sends a request with its data set on `contextId` and answers its response's status (0xC000 if the association ends first). */
  request(
    contextId: number,
    fields: Omit<Parameters<typeof encodeRequest>[0], 'messageId' | 'hasDataset'>,
    dataset: Buffer,
    peerMaxPdu: number,
  ): Promise<number> {
    const messageId = this.nextMessageId++ & 0xffff;
    const command = encodeRequest({ ...fields, messageId, hasDataset: true });
    return new Promise<number>((resolve) => {
      const finish = (status: number) => {
        this.waiting.delete(messageId);
        this.socket.off('close', closed);
        resolve(status);
      };
      const closed = () => finish(0xc000);
      this.waiting.set(messageId, finish);
      this.socket.once('close', closed);
      const parts = [
        { command: true, bytes: command },
        { command: false, bytes: dataset },
      ];
      this.socket.write(encodePDataBatch(contextId, parts, peerMaxPdu));
    });
  }
}
