import { Writable } from 'node:stream';
import type { Socket } from 'node:net';
import dimse from 'dcmjs-dimse';
import { DicomError } from './parse.js';
import { toPart10 } from './part10.js';

const { Scp, Server, Dataset } = dimse;
const { PresentationContextResult, RejectResult, RejectSource, RejectReason, SopClass, Status, TransferSyntax } =
  dimse.constants;

/** Transfer syntaxes accepted as offered (stored as received, never transcoded), most preferred first. */
const ACCEPTED_SYNTAXES = [
  TransferSyntax.ExplicitVRLittleEndian,
  TransferSyntax.ImplicitVRLittleEndian,
  '1.2.840.10008.1.2.4.70', // JPEG lossless SV1
  '1.2.840.10008.1.2.4.57', // JPEG lossless
  '1.2.840.10008.1.2.4.50', // JPEG baseline
  '1.2.840.10008.1.2.4.51', // JPEG extended
  '1.2.840.10008.1.2.4.80', // JPEG-LS lossless
  '1.2.840.10008.1.2.4.81', // JPEG-LS near-lossless
  '1.2.840.10008.1.2.4.90', // JPEG 2000 lossless
  '1.2.840.10008.1.2.4.91', // JPEG 2000
  '1.2.840.10008.1.2.5', // RLE lossless
  TransferSyntax.ExplicitVRBigEndian,
];

const STORAGE_PREFIX = '1.2.840.10008.5.1.4.1.1.';

// The library logs every PDU at info level to stdout; our own logger reports what matters.
dimse.log.setLevel('error');

export interface DimseHandlers {
  /** The organization a calling AE stores into, or null to refuse the association. */
  resolveCaller(
    callingAe: string,
    calledAe: string,
    remoteAddress: string,
  ): Promise<{ bucketId: string } | { refuse: 'calling' | 'called' }>;
  store(bucketId: string, part10: Buffer): Promise<void>;
  onRefused?(callingAe: string, calledAe: string, remoteAddress: string, reason: string): void;
}

/**
 * C-ECHO and C-STORE SCP. Incoming datasets are streamed into memory as raw bytes and wrapped in
 * a Part 10 header; dcmjs never builds a dataset object for them, which keeps the SCP fast.
 */
export function startDimse(
  port: number,
  aeTitle: string,
  handlers: DimseHandlers,
): Promise<{ close(): void; port: number }> {
  class YypScp extends Scp {
    private bucketId: string | null = null;
    private readonly remote: string;

    constructor(socket: Socket, opts: object) {
      super(socket, opts);
      socket.setNoDelay(true);
      this.remote = socket.remoteAddress ?? '';
    }

    override associationRequested(association: dimse.association.Association): void {
      const calling = association.getCallingAeTitle().trim();
      const called = association.getCalledAeTitle().trim();
      handlers
        .resolveCaller(calling, called, this.remote)
        .then((decision) => {
          if ('refuse' in decision) {
            handlers.onRefused?.(calling, called, this.remote, decision.refuse);
            this.sendAssociationReject(
              RejectResult.Permanent,
              RejectSource.ServiceUser,
              decision.refuse === 'called' ? RejectReason.CalledAeNotRecognized : RejectReason.CallingAeNotRecognized,
            );
            return;
          }
          this.bucketId = decision.bucketId;
          association.setMaxPduLength(262_144);
          for (const c of association.getPresentationContexts()) {
            const context = association.getPresentationContext(c.id);
            const abstract = context.getAbstractSyntaxUid();
            if (abstract !== SopClass.Verification && !abstract.startsWith(STORAGE_PREFIX)) {
              context.setResult(PresentationContextResult.RejectAbstractSyntaxNotSupported);
              continue;
            }
            const offered = context.getTransferSyntaxUids();
            const chosen = ACCEPTED_SYNTAXES.find((ts) => offered.includes(ts));
            if (chosen) context.setResult(PresentationContextResult.Accept, chosen);
            else context.setResult(PresentationContextResult.RejectTransferSyntaxesNotSupported);
          }
          this.sendAssociationAccept();
        })
        .catch(() => {
          this.sendAssociationReject(
            RejectResult.Transient,
            RejectSource.ServiceProviderPresentation,
            RejectReason.NoReasonGiven,
          );
        });
    }

    override associationReleaseRequested(): void {
      this.sendAssociationReleaseResponse();
    }

    override cEchoRequest(
      request: dimse.requests.CEchoRequest,
      callback: (r: dimse.responses.CEchoResponse) => void,
    ): void {
      const response = dimse.responses.CEchoResponse.fromRequest(request);
      response.setStatus(Status.Success);
      callback(response);
    }

    override createStoreWritableStream(): Writable {
      const chunks: Buffer[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _enc, done) {
          chunks.push(chunk);
          done();
        },
      });
      (sink as Writable & { chunks: Buffer[] }).chunks = chunks;
      return sink;
    }

    override createDatasetFromStoreWritableStream(
      writable: Writable,
      context: dimse.association.PresentationContext,
      callback: (dataset: dimse.Dataset) => void,
    ): void {
      const ts = context.getAcceptedTransferSyntaxUid() ?? TransferSyntax.ImplicitVRLittleEndian;
      const dataset = new Dataset({}, ts);
      (dataset as unknown as { yypBytes: Buffer }).yypBytes = Buffer.concat(
        (writable as Writable & { chunks: Buffer[] }).chunks,
      );
      callback(dataset);
    }

    override cStoreRequest(
      request: dimse.requests.CStoreRequest,
      callback: (r: dimse.responses.CStoreResponse) => void,
    ): void {
      const response = dimse.responses.CStoreResponse.fromRequest(request);
      const raw = (request.getDataset() as unknown as { yypBytes?: Buffer } | undefined)?.yypBytes;
      const ts = request.getDataset()?.getTransferSyntaxUid();
      if (!this.bucketId || !raw || !ts) {
        response.setStatus(0xc000);
        callback(response);
        return;
      }
      const bytes = toPart10(raw, {
        sopClassUid: request.getAffectedSopClassUid(),
        sopInstanceUid: request.getAffectedSopInstanceUid(),
        transferSyntaxUid: ts,
      });
      handlers
        .store(this.bucketId, bytes)
        .then(() => response.setStatus(Status.Success))
        .catch((err: unknown) => response.setStatus(err instanceof DicomError ? 0xa900 : 0xa700))
        .finally(() => callback(response));
    }
  }

  const server = new Server(YypScp as unknown as typeof Scp);
  return new Promise((resolve, reject) => {
    server.on('listening', () => resolve({ close: () => server.close(), port }));
    server.on('networkError', (e: Error) => {
      if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') reject(e);
    });
    server.listen(port);
  });
}
