/**
 * The Storage Commitment Push Model SCP (PS3.4 J.3): an N-ACTION asks whether instances are
 * durably stored; it is answered at once (N-ACTION-RSP) and the N-EVENT-REPORT follows with the
 * instances committed and those that failed. The report goes on the same association when the
 * requestor took the SCP role of storage commitment there (role selection), otherwise on a new
 * association from yyp to the requestor's registered host and port.
 */
import {
  COMMITMENT_ACTION,
  COMMITMENT_SOP_CLASS,
  COMMITMENT_SOP_INSTANCE,
  FAILURE_REASON,
  commitmentReport,
  parseCommitmentRequest,
  type CommitmentRequest,
  type CommitmentResult,
} from './commitment.js';
import { COMMAND } from './dimse-command.js';
import type { DimseCaller } from './dimse-handlers.js';
import type { AcceptedContext } from './dimse-negotiation.js';
import type { OutgoingRequests } from './dimse-outgoing.js';
import type { ServiceExchange } from './dimse-services.js';
import { StoreScu } from './store-scu.js';

export interface CommitmentHandlers {
  /** Which of the instances are durably stored in the caller's organization (the rest failed, with a reason). */
  check(caller: DimseCaller, request: CommitmentRequest): Promise<CommitmentResult>;
  /** Where a report goes on a new association: the requestor's registered host and port. */
  reportTo(caller: DimseCaller): Promise<{ host: string; port: number } | null>;
  /** Called once per request when its report was delivered or could not be. */
  reported(caller: DimseCaller, result: CommitmentResult, delivery: 'same' | 'new' | 'undelivered'): void;
}

/** Sends the report on the requestor's association (its N-EVENT-REPORT-RSP status), when it took that role. */
export type SameAssociationReport = ((eventTypeId: number, dataset: (ts: string) => Buffer) => Promise<number>) | null;

/**
 * N-ACTION "Request Storage Commitment": success (the request is taken) or processing failure
 * (0x0110) for a data set that is no request; then the report, awaited when it goes on this
 * association, in the background when on a new one.
 */
export async function answerCommitment(
  exchange: ServiceExchange,
  ctx: { caller: DimseCaller; ourAe: string; handlers: CommitmentHandlers; same: SameAssociationReport },
): Promise<void> {
  const { message, messageId, transferSyntax } = exchange;
  const respond = (status: number, errorComment?: string) =>
    exchange.respond({
      commandField: COMMAND.nActionRq | 0x8000,
      messageId,
      status,
      sopClassUid: COMMITMENT_SOP_CLASS,
      sopInstanceUid: COMMITMENT_SOP_INSTANCE,
      actionTypeId: COMMITMENT_ACTION,
      errorComment,
    });
  let request: CommitmentRequest;
  try {
    request = parseCommitmentRequest(Buffer.concat(message.data), transferSyntax);
  } catch (err) {
    respond(FAILURE_REASON.processingFailure, err instanceof Error ? err.message.slice(0, 64) : undefined);
    return;
  } finally {
    message.data = [];
  }
  respond(0x0000);
  const report = async () => {
    let result: CommitmentResult;
    try {
      result = await ctx.handlers.check(ctx.caller, request);
    } catch {
      result = {
        transactionUid: request.transactionUid,
        committed: [],
        failed: request.refs.map((r) => ({ ...r, reason: FAILURE_REASON.processingFailure })),
      };
    }
    const event = (ts: string) => commitmentReport(result, ts);
    if (ctx.same && !exchange.closed()) {
      const status = await ctx.same(event(transferSyntax).eventTypeId, (ts) => event(ts).dataset);
      ctx.handlers.reported(ctx.caller, result, status === 0 ? 'same' : 'undelivered');
      return;
    }
    ctx.handlers.reported(ctx.caller, result, (await reportOnNewAssociation(ctx, event)) ? 'new' : 'undelivered');
  };
  // On this association the requestor waits for the report before it goes on; on a new one it
  // may release this association at once.
  if (ctx.same) await report();
  else void report();
}

async function reportOnNewAssociation(
  ctx: { caller: DimseCaller; ourAe: string; handlers: CommitmentHandlers },
  event: (ts: string) => { eventTypeId: number; dataset: Buffer },
): Promise<boolean> {
  const to = await ctx.handlers.reportTo(ctx.caller).catch(() => null);
  if (!to) return false;
  let scu: StoreScu | null = null;
  try {
    scu = await StoreScu.open(
      { host: to.host, port: to.port, callingAe: ctx.ourAe, calledAe: ctx.caller.callingAe },
      [{ id: 1, abstractSyntax: COMMITMENT_SOP_CLASS, transferSyntaxes: ['1.2.840.10008.1.2.1', '1.2.840.10008.1.2'] }],
      // yyp requests this association but is the SCP of storage commitment on it (PS3.4 J.3.3).
      [{ sopClass: COMMITMENT_SOP_CLASS, scu: false, scp: true }],
    );
    const status = await scu.request(
      COMMITMENT_SOP_CLASS,
      {
        commandField: COMMAND.nEventReportRq,
        affectedSopClassUid: COMMITMENT_SOP_CLASS,
        affectedSopInstanceUid: COMMITMENT_SOP_INSTANCE,
        eventTypeId: event('1.2.840.10008.1.2.1').eventTypeId,
      },
      (ts) => event(ts).dataset,
    );
    await scu.release();
    return status === 0x0000;
  } catch {
    scu?.abort();
    return false;
  }
}

/** The report sender on the requestor's own association (it took the SCP role of storage commitment there). */
export function sameAssociation(
  outgoing: OutgoingRequests,
  contextId: number,
  context: AcceptedContext,
  peerMaxPdu: number,
): NonNullable<SameAssociationReport> {
  return (eventTypeId, dataset) =>
    outgoing.request(
      contextId,
      {
        commandField: COMMAND.nEventReportRq,
        affectedSopClassUid: COMMITMENT_SOP_CLASS,
        affectedSopInstanceUid: COMMITMENT_SOP_INSTANCE,
        eventTypeId,
      },
      dataset(context.transferSyntax),
      peerMaxPdu,
    );
}
