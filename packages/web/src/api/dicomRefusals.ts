import { adminCalls, type DicomRefusalPage, type DicomRefusalQuery } from '@yyp/contracts';
import { callApi } from './call';

/**
 * Refused DICOM associations (issue 19 §8): every one for the platform admin (`groupId` null),
 * those that concern a group's AE titles for its auditors.
 */
export function queryDicomRefusals(
  groupId: string | null,
  body: DicomRefusalQuery,
  signal?: AbortSignal,
): Promise<DicomRefusalPage> {
  return groupId
    ? callApi(adminCalls.groupDicomRefusals, { params: { groupId }, body }, { signal })
    : callApi(adminCalls.dicomRefusals, { body }, { signal });
}
