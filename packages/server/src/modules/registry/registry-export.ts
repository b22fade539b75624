import { displayPersonName, type Language, type RegistryItem } from '@yyp/contracts';

/**
 * The columns of the schedule export (POST exports/schedules), with their headers in the three
 * interface languages (the words of the web's /registry) and how each cell is read from a row of
 * the registry list.
 */
type Labels = Record<Language, string>;

const STATUS: Record<string, Labels> = {
  Registered: { chs: '已登记', en: 'Registered', tib: 'ཐོ་བཀོད་ཟིན།' },
  Scheduled: { chs: '已预约', en: 'Scheduled', tib: 'དུས་འཆར་ཟིན།' },
  Arrived: { chs: '已到检', en: 'Arrived', tib: 'འབྱོར་ཟིན།' },
  Performed: { chs: '已检查', en: 'Performed', tib: 'ཞིབ་བཤེར་ཟིན།' },
  Cancelled: { chs: '已取消', en: 'Cancelled', tib: 'ཕྱིར་འཐེན་ཟིན།' },
};
const GENDER: Record<string, Labels> = {
  M: { chs: '男', en: 'Male', tib: 'ཕོ།' },
  F: { chs: '女', en: 'Female', tib: 'མོ།' },
  O: { chs: '其他', en: 'Other', tib: 'གཞན།' },
  U: { chs: '未知', en: 'Unknown', tib: 'མི་ཤེས།' },
};
const PATIENT_SOURCE: Record<string, Labels> = {
  I: { chs: '住院', en: 'Inpatient', tib: 'ནང་ནད་པ།' },
  O: { chs: '门诊', en: 'Outpatient', tib: 'ཕྱི་ནད་པ།' },
  E: { chs: '急诊', en: 'Emergency', tib: 'ཛ་དྲག' },
  P: { chs: '体检', en: 'Physical exam', tib: 'ལུས་ཞིབ།' },
  NO: { chs: '夜诊', en: 'Night clinic', tib: 'མཚན་མོའི་སྨན་ཁང་།' },
};
const ORDER_SOURCE: Record<string, Labels> = {
  internal: { chs: '登记台', en: 'Desk', tib: 'ཐོ་འགོད་སྒར།' },
  external: { chs: '外部申请', en: 'External order', tib: 'ཕྱི་ནས་རེ་ཞུ།' },
};
const yes: Labels = { chs: '是', en: 'Yes', tib: 'ཡིན།' };

/** YYYYMMDD as YYYY-MM-DD; an ISO instant as YYYY-MM-DD HH:mm:ss (UTC, as the exam export writes it). */
const birth = (d: string) => (/^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}` : d);
const instant = (v: string | null) => (v ? v.replace('T', ' ').slice(0, 19) : '');

export interface ScheduleColumn {
  key: string;
  header: Labels;
  width: number;
  cell: (item: RegistryItem, language: Language) => string | number;
}

const column = (key: string, header: Labels, width: number, cell: ScheduleColumn['cell']): ScheduleColumn => ({
  key,
  header,
  width,
  cell,
});
/** A coded value shown by its label in the export's language (the code itself when unknown). */
const label = (labels: Record<string, Labels>, code: string, language: Language) => labels[code]?.[language] ?? code;

export const SCHEDULE_COLUMNS: ScheduleColumn[] = [
  column(
    'accessionNumber',
    { chs: '检查号', en: 'Accession number', tib: 'ཞིབ་བཤེར་ཨང་།' },
    16,
    (e) => e.accessionNumber,
  ),
  column('status', { chs: '状态', en: 'Status', tib: 'གནས་སྟངས།' }, 10, (e, l) => label(STATUS, e.status, l)),
  column('patientName', { chs: '姓名', en: 'Patient name', tib: 'ནད་པའི་མིང་།' }, 16, (e, l) =>
    displayPersonName(e.patient.name, l),
  ),
  column('patientId', { chs: '患者编号', en: 'Patient ID', tib: 'ནད་པའི་ཨང་རྟགས།' }, 16, (e) => e.patient.patientId),
  column('gender', { chs: '性别', en: 'Gender', tib: 'ཕོ་མོ།' }, 8, (e, l) => label(GENDER, e.patient.gender, l)),
  column('birthDate', { chs: '出生日期', en: 'Birth date', tib: 'སྐྱེས་ཚེས།' }, 12, (e) => birth(e.patient.birthDate)),
  column('phone', { chs: '电话', en: 'Phone', tib: 'ཁ་པར།' }, 14, (e) => e.patient.phone),
  column('patientSource', { chs: '患者来源', en: 'Patient source', tib: 'ནད་པའི་འབྱུང་ཁུངས།' }, 10, (e, l) =>
    label(PATIENT_SOURCE, e.patientSource, l),
  ),
  column('procedure', { chs: '检查项目', en: 'Procedure', tib: 'ཞིབ་བཤེར་རྣམ་གྲངས།' }, 18, (e) => e.procedureName),
  column('modality', { chs: '检查类型', en: 'Modality', tib: 'ཞིབ་བཤེར་རིགས།' }, 10, (e) => e.modality),
  column('bodyPart', { chs: '检查部位', en: 'Body part', tib: 'ལུས་ཕུང་།' }, 12, (e) => e.bodyPart),
  column('scheduled', { chs: '预约时间', en: 'Scheduled', tib: 'དུས་འཆར།' }, 18, (e) =>
    `${e.scheduledDate} ${e.scheduledTime}`.trim(),
  ),
  column('device', { chs: '设备', en: 'Device', tib: 'སྒྲིག་ཆས།' }, 14, (e) => e.deviceName),
  column('applyDept', { chs: '申请科室', en: 'Department', tib: 'རེ་ཞུ་སྡེ་ཚན།' }, 14, (e) => e.applyDept),
  column('orderPlacer', { chs: '申请医生', en: 'Ordering doctor', tib: 'རེ་ཞུ་སྨན་པ།' }, 12, (e) => e.orderPlacer),
  column('urgent', { chs: '急诊', en: 'Urgent', tib: 'ཛ་དྲག' }, 8, (e, l) => (e.urgent ? yes[l] : '')),
  column('source', { chs: '来源', en: 'Source', tib: 'འབྱུང་ཁུངས།' }, 12, (e, l) => label(ORDER_SOURCE, e.source, l)),
  column('passCode', { chs: '取号码', en: 'Pass code', tib: 'འཛུལ་ཨང་།' }, 10, (e) => e.passCode),
  column('registrar', { chs: '登记人', en: 'Registrar', tib: 'ཐོ་འགོད་མཁན།' }, 12, (e) => e.registrarName),
  column('arrivedAt', { chs: '到检时间', en: 'Arrived at', tib: 'འབྱོར་དུས།' }, 20, (e) => instant(e.arrivedAt)),
  column('created', { chs: '登记时间', en: 'Registered at', tib: 'ཐོ་འགོད་དུས།' }, 20, (e) => instant(e.created)),
];

/** The workbook of the rows: a frozen header row in `language`, one row per scheduled exam. */
export async function scheduleWorkbook(items: RegistryItem[], language: Language, created: Date): Promise<Buffer> {
  // exceljs (about 8 MB of heap) is loaded on the first export, not at start.
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.created = created;
  const sheet = book.addWorksheet('schedules', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = SCHEDULE_COLUMNS.map((c) => ({ header: c.header[language], key: c.key, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  for (const item of items) {
    sheet.addRow(Object.fromEntries(SCHEDULE_COLUMNS.map((c) => [c.key, c.cell(item, language)])));
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
