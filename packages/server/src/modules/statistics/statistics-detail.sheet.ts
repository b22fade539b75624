import { STAT_COLUMN_LABELS, STAT_DIMENSION_LABELS, type Language, type StatReportDetailItem } from '@yyp/contracts';
import { sheetTime, type XlsxColumn } from '../../platform/xlsx.js';

type Words = Record<Language, string>;
const w = (chs: string, en: string, tib: string): Words => ({ chs, en, tib });

/** The sheet name of the report detail export. */
export const DETAIL_SHEET: Words = w('报告明细', 'Report detail', 'སྙན་ཞུའི་ཞིབ་ཕྲ།');

const yesNo = { yes: w('是', 'Yes', 'ཡིན།'), no: w('否', 'No', 'མིན།') };
const name = (p: { name: string } | null) => p?.name ?? '';

/** The columns of statistics/report-detail/export-excel, headed in the caller's language. */
export function detailColumns(language: Language): XlsxColumn<StatReportDetailItem>[] {
  return [
    { header: w('审核时间', 'Approved at', 'ཞིབ་དཔྱད་དུས་ཚོད།'), width: 20, cell: (r) => sheetTime(r.approvedAt) },
    { header: STAT_DIMENSION_LABELS.bucket, width: 20, cell: (r) => r.bucketName },
    { header: w('患者姓名', 'Patient name', 'ནད་པའི་མིང་།'), width: 16, cell: (r) => r.patientName },
    { header: w('患者编号', 'Patient ID', 'ནད་པའི་ཨང་།'), width: 16, cell: (r) => r.patientId },
    { header: w('检查号', 'Accession number', 'ཞིབ་བཤེར་ཨང་།'), width: 18, cell: (r) => r.accessionNumber },
    { header: STAT_DIMENSION_LABELS.modality, width: 10, cell: (r) => r.modality },
    { header: STAT_DIMENSION_LABELS.bodyPart, width: 16, cell: (r) => r.bodyPart },
    { header: STAT_COLUMN_LABELS.bodyParts, width: 10, cell: (r) => r.bodyPartCount },
    { header: w('书写医生', 'Written by', 'བྲིས་མཁན།'), width: 14, cell: (r) => name(r.writer) },
    { header: w('审核医生', 'Approved by', 'ཞིབ་དཔྱད་མཁན།'), width: 14, cell: (r) => name(r.approver) },
    { header: STAT_DIMENSION_LABELS.noteTaker, width: 14, cell: (r) => name(r.noteTaker) },
    {
      header: STAT_COLUMN_LABELS.positive,
      width: 8,
      cell: (r) => (r.positive === null ? '' : (r.positive ? yesNo.yes : yesNo.no)[language]),
    },
  ];
}
