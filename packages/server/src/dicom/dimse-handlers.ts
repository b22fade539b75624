/** What the DIMSE server (dimse.ts) asks of the archive: who may associate and each service's answers. */
import type { CommitmentHandlers } from './dimse-commitment.js';
import type { QueryRetrieveHandlers } from './dimse-qr.js';
import type { MppsEvent, MppsResult } from './mpps.js';
import type { WorklistItem, WorklistQuery } from './mwl.js';

export interface DimseHandlers {
  /** The organization a calling AE stores into, or the reason to refuse the association. */
  resolveCaller(
    callingAe: string,
    calledAe: string,
    remoteAddress: string,
  ): Promise<{ bucketId: string } | { refuse: 'calling' | 'called' }>;
  /** Stores a received instance; `callingAe` sent it. */
  store(bucketId: string, part10: Buffer, callingAe?: string): Promise<void>;
  onRefused?(callingAe: string, calledAe: string, remoteAddress: string, reason: string): void;
  /**
   * Modality Worklist C-FIND: the scheduled steps answering `query` for this caller (its
   * organization and AE title). Without it the worklist presentation context is refused.
   */
  worklist?(caller: DimseCaller, query: WorklistQuery): Promise<WorklistItem[]>;
  /** MPPS N-CREATE / N-SET: what the step's event did. Without it the MPPS context is refused. */
  mpps?(caller: DimseCaller, event: MppsEvent): Promise<MppsResult>;
  /** Query/Retrieve (C-FIND, C-MOVE, C-GET). Without it their contexts are refused. */
  queryRetrieve?: QueryRetrieveHandlers;
  /** Storage Commitment Push Model (N-ACTION, N-EVENT-REPORT). Without it its context is refused. */
  commitment?: CommitmentHandlers;
  /** Our AE title: answered as Retrieve AE Title, the calling AE of C-MOVE's associations ('YYP'). */
  aeTitle?: string;
}

/** Who is on the other end of an association: the organization resolveCaller chose and the AE title. */
export interface DimseCaller {
  bucketId: string;
  callingAe: string;
  /** the peer's address (audit rows) */
  remoteAddress?: string;
}
