import type { Language } from './limits.js';

/**
 * The printed report's labels in the three interface languages, one table for the web's print
 * view (i18n reportPrint.sheet) and the server's PDF, so both print the same words. The report
 * text itself is printed as written.
 */
export interface ReportSheetLabels {
  defaultTitle: string;
  name: string;
  gender: string;
  age: string;
  patientId: string;
  accessionNumber: string;
  studyDate: string;
  modality: string;
  bodyPart: string;
  studyDesc: string;
  applyDept: string;
  bedNum: string;
  inpatientId: string;
  outpatientId: string;
  clinicImpression: string;
  urgent: string;
  findings: string;
  conclusion: string;
  positive: string;
  positiveYes: string;
  positiveNo: string;
  writer: string;
  approver: string;
  reportTime: string;
  /** Stands on a report that is not approved yet. */
  notApproved: string;
}

export const REPORT_SHEET_LABELS: Record<Language, ReportSheetLabels> = {
  chs: {
    defaultTitle: '医学影像检查报告单',
    name: '姓名',
    gender: '性别',
    age: '年龄',
    patientId: '患者编号',
    accessionNumber: '检查号',
    studyDate: '检查日期',
    modality: '检查类型',
    bodyPart: '检查部位',
    studyDesc: '检查项目',
    applyDept: '申请科室',
    bedNum: '床号',
    inpatientId: '住院号',
    outpatientId: '门诊号',
    clinicImpression: '临床诊断',
    urgent: '急诊',
    findings: '影像所见',
    conclusion: '诊断意见',
    positive: '阴阳性',
    positiveYes: '阳性',
    positiveNo: '阴性',
    writer: '报告医生',
    approver: '审核医生',
    reportTime: '报告时间',
    notApproved: '未审核，仅供参考',
  },
  en: {
    defaultTitle: 'Medical Imaging Report',
    name: 'Name',
    gender: 'Sex',
    age: 'Age',
    patientId: 'Patient ID',
    accessionNumber: 'Accession No.',
    studyDate: 'Study date',
    modality: 'Modality',
    bodyPart: 'Body part',
    studyDesc: 'Procedure',
    applyDept: 'Department',
    bedNum: 'Bed',
    inpatientId: 'Inpatient No.',
    outpatientId: 'Outpatient No.',
    clinicImpression: 'Clinical diagnosis',
    urgent: 'Urgent',
    findings: 'Findings',
    conclusion: 'Impression',
    positive: 'Result',
    positiveYes: 'Positive',
    positiveNo: 'Negative',
    writer: 'Reported by',
    approver: 'Approved by',
    reportTime: 'Report time',
    notApproved: 'Not approved: for reference only',
  },
  tib: {
    defaultTitle: 'སྨན་བཅོས་པར་རིས་ཞིབ་བཤེར་སྙན་ཐོ།',
    name: 'ནད་པའི་མིང་།',
    gender: 'ཕོ་མོ།',
    age: 'ལོ་ཚད།',
    patientId: 'ནད་པའི་ཨང་།',
    accessionNumber: 'ཞིབ་བཤེར་ཨང་།',
    studyDate: 'ཞིབ་བཤེར་ཚེས་གྲངས།',
    modality: 'སྒྲིག་ཆས་ཀྱི་རིགས།',
    bodyPart: 'ལུས་ཕུང་།',
    studyDesc: 'ཞིབ་བཤེར་རྣམ་གྲངས།',
    applyDept: 'རེ་ཞུ་སྡེ་ཚན།',
    bedNum: 'ཉལ་ཁྲི།',
    inpatientId: 'ནང་ནད་ཨང་།',
    outpatientId: 'ཕྱི་ནད་ཨང་།',
    clinicImpression: 'སྨན་ཁང་གི་ནད་ངོས།',
    urgent: 'ཛ་དྲག',
    findings: 'པར་རིས་ཀྱི་མཐོང་རྟོགས།',
    conclusion: 'ནད་ངོས་འཛིན།',
    positive: 'མཇུག་འབྲས།',
    positiveYes: 'ཡོད་རྟགས།',
    positiveNo: 'མེད་རྟགས།',
    writer: 'སྙན་ཐོ་འབྲི་མཁན།',
    approver: 'ཆོག་མཆན་སྤྲོད་མཁན།',
    reportTime: 'སྙན་ཐོའི་དུས་ཚོད།',
    notApproved: 'ཆོག་མཆན་མ་ཐོབ། དཔྱད་གཞི་ཙམ།',
  },
};
