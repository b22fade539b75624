import type { Services } from './app-services.js';
import type { DimseHandlers } from './dicom/dimse.js';

/**
 * The DIMSE server's handlers as the app's services answer them (main.ts and the tests' listener
 * wire the same): callers resolved and instances ingested by the archive, the worklist and MPPS by
 * the registry, Query/Retrieve by the archive's DICOMweb module, C-MOVE destinations among the
 * organization's registered devices. `onRefused` and `onError` say what a deployment logs.
 */
export function dimseHandlers(
  services: Pick<Services, 'archive' | 'registryDicom' | 'dimseQueryRetrieve' | 'forwarding'>,
  opts: {
    aeTitle: string;
    onRefused?: DimseHandlers['onRefused'];
    onError?: (err: unknown, what: string) => void;
  },
): DimseHandlers {
  const { archive, registryDicom, dimseQueryRetrieve: qr } = services;
  const failed = (what: string) => (err: unknown) => opts.onError?.(err, what);
  return {
    aeTitle: opts.aeTitle,
    resolveCaller: (calling, called, remote) => archive.resolveCaller(calling, called, remote),
    store: async (bucketId, bytes, callingAe) => {
      const stored = await archive.ingest(bucketId, bytes, 'dimse');
      if (stored.newExam) services.forwarding.onDimseArrival(stored.examId, bucketId, callingAe ?? '');
    },
    worklist: (caller, query) => registryDicom.worklist(caller, query),
    mpps: (caller, event) => registryDicom.mpps(caller, event),
    queryRetrieve: {
      find: (caller, query) => qr.find(caller, query),
      instances: (caller, request) => qr.instances(caller, request),
      destination: (caller, ae) => archive.moveDestination(caller.bucketId, ae),
      read: (instance) => qr.read(instance),
      retrieved: (caller, outcome) => void qr.retrieved(caller, outcome).catch(failed('retrieve audit')),
    },
    commitment: {
      check: (caller, request) => qr.commitment(caller, request),
      reportTo: (caller) => archive.moveDestination(caller.bucketId, caller.callingAe),
      reported: (caller, result, delivery) =>
        void qr.committed(caller, result, delivery).catch(failed('commitment audit')),
    },
    ...(opts.onRefused ? { onRefused: opts.onRefused } : {}),
  };
}
