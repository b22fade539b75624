import type { DicomRefusalPage, DicomRefusalQuery } from '@yyp/contracts';
import { apiRequest } from './client';

/**
 * Refused DICOM associations (issue 19 §8): every one for the platform admin (`groupId` null),
 * those that concern a group's AE titles for its auditors.
 */
export function queryDicomRefusals(
  groupId: string | null,
  body: DicomRefusalQuery,
  signal?: AbortSignal,
): Promise<DicomRefusalPage> {
  const path = groupId
    ? `groups/${encodeURIComponent(groupId)}/dicom-associations/page-query`
    : 'admin/dicom-associations/page-query';
  return apiRequest<DicomRefusalPage>(path, { method: 'POST', body, signal });
}
