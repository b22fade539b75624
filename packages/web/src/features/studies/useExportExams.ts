import { useMutation } from '@tanstack/react-query';
import { examCalls, type ExamFilter, type ExamSort, type Language } from '@yyp/contracts';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/call';
import { exportExams } from '../../api/exams';
import { useNotify } from '../../shared/notify/useNotify';
import { saveBlob } from '../../ui/saveBlob';

const day = () => new Date().toISOString().slice(0, 10).replace(/-/g, '');

/** The export button: the list's filters to .xlsx (at most 3,000 exams; the server says when over). */
export function useExportExams() {
  const { t, i18n } = useTranslation();
  const notify = useNotify();
  return useMutation({
    mutationFn: async (body: { filters: ExamFilter[]; sorts: ExamSort[]; columns: string[] }) => {
      notify.info(t('studyList.exporting'));
      return exportExams({ ...body, columns: exportColumns(body.columns), language: i18n.language as Language });
    },
    onSuccess: (blob) => saveBlob(blob, `exams-${day()}.xlsx`),
    onError: notify.error,
  });
}

/** The export's columns in the order the table shows them (patient becomes name and ID). */
function exportColumns(columns: string[]): string[] {
  const map: Record<string, string[]> = {
    patient: ['patientName', 'patientId'],
    genderAge: ['patientGender', 'age'],
    patientId: ['patientId'],
    accession: ['accessionNumber'],
    modality: ['modality'],
    bodyPart: ['bodyPart'],
    examTime: ['studyDate'],
    organization: ['bucketName'],
    source: ['patientSource'],
    department: ['applyDept'],
    reportStatus: ['reportStatus'],
    assignee: ['assigneeName'],
    flags: ['urgentFlag', 'printed'],
  };
  return [...new Set(columns.flatMap((c) => map[c] ?? []))];
}

/** The study as a zip, with the signed-in token (GET exams/{id}/study-package). */
export async function downloadStudyPackage(examId: string): Promise<void> {
  const blob = (await callApi(
    examCalls.studyPackage,
    { params: { examId } },
    { as: 'blob', timeoutMs: 600_000 },
  )) as unknown as Blob;
  saveBlob(blob, `study-${examId}.zip`);
}
