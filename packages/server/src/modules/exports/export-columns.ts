import { displayPersonName, type ExamItem, type Language } from '@yyp/contracts';

/**
 * The columns of the study list export, with their headers in the three interface languages and
 * how each cell is read from a (possibly masked) list item.
 */
type Labels = Record<Language, string>;

const yes: Labels = { chs: '是', en: 'Yes', tib: 'ཡིན།' };
const flag = (v: boolean, language: Language) => (v ? yes[language] : '');

const GENDER: Record<string, Labels> = {
  M: { chs: '男', en: 'Male', tib: 'ཕོ།' },
  F: { chs: '女', en: 'Female', tib: 'མོ།' },
  O: { chs: '其他', en: 'Other', tib: 'གཞན།' },
  U: { chs: '未知', en: 'Unknown', tib: 'མི་ཤེས།' },
};
const SOURCE: Record<string, Labels> = {
  I: { chs: '住院', en: 'Inpatient', tib: 'ནང་ནད་པ།' },
  O: { chs: '门诊', en: 'Outpatient', tib: 'ཕྱི་ནད་པ།' },
  E: { chs: '急诊', en: 'Emergency', tib: 'ཛ་དྲག' },
  P: { chs: '体检', en: 'Physical exam', tib: 'ལུས་ཞིབ།' },
  NO: { chs: '夜诊', en: 'Night clinic', tib: 'མཚན་མོའི་སྨན་ཁང་།' },
};
const STATUS: Record<string, Labels> = {
  none: { chs: '未写', en: 'Not written', tib: 'མ་བྲིས།' },
  locked: { chs: '编辑中', en: 'Being edited', tib: 'རྩོམ་སྒྲིག་བྱེད་བཞིན།' },
  partial: { chs: '草稿', en: 'Draft', tib: 'ཟིན་བྲིས།' },
  final: { chs: '待审核', en: 'Submitted', tib: 'ཕུལ་ཟིན།' },
  hold: { chs: '已驳回', en: 'Rejected', tib: 'ཕྱིར་ལོག' },
  cancelled: { chs: '已召回', en: 'Recalled', tib: 'ཕྱིར་བསྡུས།' },
  advised: { chs: '会诊中', en: 'Advised', tib: 'བསམ་འཆར་ཞུས།' },
  printed: { chs: '已打印', en: 'Printed', tib: 'པར་བསྐྲུན་ཟིན།' },
  corrected: { chs: '已审核', en: 'Approved', tib: 'ཆོག་མཆན་ཐོབ།' },
  preliminary: { chs: '初步报告', en: 'Preliminary', tib: 'སྔོན་འགྲོའི་སྙན་ཐོ།' },
};

const date = (d: string) => (/^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}` : d);
const time = (t: string) => (/^\d{4}/.test(t) ? `${t.slice(0, 2)}:${t.slice(2, 4)}` : '');

export interface ExportColumn {
  key: string;
  header: Labels;
  width: number;
  cell: (e: ExamItem, language: Language) => string | number;
}

type Cell = ExportColumn['cell'];
type TextKey = { [K in keyof ExamItem]-?: ExamItem[K] extends string ? K : never }[keyof ExamItem];

const column = (key: string, header: Labels, width: number, cell: Cell): ExportColumn => ({ key, header, width, cell });
/** A column showing the item's text field of the same name as it is. */
const text = (key: TextKey, header: Labels, width: number) => column(key, header, width, (e) => e[key]);
/** A coded text field shown by its label in the export's language (the code itself when unknown). */
const coded = (key: TextKey, header: Labels, width: number, labels: Record<string, Labels>) =>
  column(key, header, width, (e, l) => labels[e[key]]?.[l] ?? e[key]);
/** A yes/no field: Yes, or empty. */
const yesNo = (key: 'urgentFlag' | 'printed', header: Labels, width: number) =>
  column(key, header, width, (e, l) => flag(e[key], l));

export const EXPORT_COLUMNS: ExportColumn[] = [
  column('patientName', { chs: '姓名', en: 'Patient name', tib: 'ནད་པའི་མིང་།' }, 16, (e, language) =>
    displayPersonName(e.patientName, language),
  ),
  text('patientId', { chs: '患者编号', en: 'Patient ID', tib: 'ནད་པའི་ཨང་རྟགས།' }, 16),
  coded('patientGender', { chs: '性别', en: 'Gender', tib: 'ཕོ་མོ།' }, 8, GENDER),
  column('age', { chs: '年龄', en: 'Age', tib: 'ལོ་ཚད།' }, 8, (e) => e.age ?? ''),
  text('modality', { chs: '检查类型', en: 'Modality', tib: 'ཞིབ་བཤེར་རིགས།' }, 10),
  text('bodyPart', { chs: '检查部位', en: 'Body part', tib: 'ལུས་ཕུང་།' }, 12),
  text('studyDesc', { chs: '检查描述', en: 'Study description', tib: 'ཞིབ་བཤེར་འགྲེལ་བཤད།' }, 20),
  column('studyDate', { chs: '检查时间', en: 'Exam time', tib: 'ཞིབ་བཤེར་དུས་ཚོད།' }, 18, (e) =>
    `${date(e.studyDate)} ${time(e.studyTime)}`.trim(),
  ),
  text('accessionNumber', { chs: '检查号', en: 'Accession number', tib: 'ཞིབ་བཤེར་ཨང་།' }, 16),
  text('bucketName', { chs: '机构', en: 'Organization', tib: 'སྡེ་ཚན།' }, 16),
  coded('patientSource', { chs: '患者来源', en: 'Patient source', tib: 'ནད་པའི་འབྱུང་ཁུངས།' }, 10, SOURCE),
  text('applyDept', { chs: '申请科室', en: 'Department', tib: 'རེ་ཞུ་སྡེ་ཚན།' }, 14),
  text('orderPlacer', { chs: '申请医生', en: 'Ordering doctor', tib: 'རེ་ཞུ་སྨན་པ།' }, 12),
  coded('reportStatus', { chs: '报告状态', en: 'Report status', tib: 'སྙན་ཐོའི་གནས་སྟངས།' }, 12, STATUS),
  column('assigneeName', { chs: '分配医生', en: 'Assignee', tib: 'བགོས་པའི་སྨན་པ།' }, 12, (e) => e.assigneeName ?? ''),
  yesNo('urgentFlag', { chs: '急诊', en: 'Urgent', tib: 'ཛ་དྲག' }, 8),
  yesNo('printed', { chs: '已打印', en: 'Printed', tib: 'པར་བསྐྲུན་ཟིན།' }, 8),
  column('created', { chs: '上传时间', en: 'Received', tib: 'འབྱོར་དུས།' }, 20, (e) =>
    e.created.replace('T', ' ').slice(0, 19),
  ),
];
