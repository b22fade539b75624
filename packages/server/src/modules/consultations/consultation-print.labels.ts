import type { ConsultationCaseType, ConsultationStatusName, Language } from '@yyp/contracts';

/**
 * The words of a consultation's printed conclusion and of its list's export, in the three interface
 * languages (the web's i18n/consultations says the same). What people typed prints as typed.
 */
export interface ConsultationPrintLabels {
  documentTitle: string;
  title: string;
  patient: string;
  name: string;
  gender: string;
  age: string;
  tel: string;
  contactHospital: string;
  sourceBucket: string;
  targetBucket: string;
  scheduledAt: string;
  status: string;
  created: string;
  creator: string;
  reason: string;
  note: string;
  clinicImpression: string;
  cases: string;
  exams: string;
  examName: string;
  modality: string;
  bodyPart: string;
  studyDate: string;
  suggestion: string;
  treatmentPlan: string;
  result: string;
  resultBy: string;
  experts: string;
  joiners: string;
  rating: string;
  ratingComment: string;
  cancelReason: string;
  printedAt: string;
  none: string;
  files: (n: number) => string;
  stars: (n: number) => string;
  statuses: Record<ConsultationStatusName, string>;
  caseTypes: Record<ConsultationCaseType, string>;
  genders: Record<string, string>;
}

export const CONSULTATION_PRINT_LABELS: Record<Language, ConsultationPrintLabels> = {
  chs: {
    documentTitle: '会诊报告',
    title: '会诊标题',
    patient: '患者信息',
    name: '姓名',
    gender: '性别',
    age: '年龄',
    tel: '电话',
    contactHospital: '联系医院',
    sourceBucket: '申请机构',
    targetBucket: '会诊机构',
    scheduledAt: '会诊时间',
    status: '状态',
    created: '申请时间',
    creator: '申请人',
    reason: '会诊原因',
    note: '备注',
    clinicImpression: '临床诊断',
    cases: '病历资料',
    exams: '关联检查',
    examName: '名称',
    modality: '设备类型',
    bodyPart: '检查部位',
    studyDate: '检查日期',
    suggestion: '会诊意见',
    treatmentPlan: '治疗方案',
    result: '会诊结论',
    resultBy: '结论填写人',
    experts: '会诊专家',
    joiners: '参与人员',
    rating: '评价',
    ratingComment: '评价意见',
    cancelReason: '取消原因',
    printedAt: '打印时间',
    none: '无',
    files: (n) => `${n} 个文件`,
    stars: (n) => `${n} 星`,
    statuses: { pending: '待接受', scheduled: '已安排', completed: '已完成', canceled: '已取消' },
    caseTypes: { record: '病历', lab: '检验', pathology: '病理', imaging: '影像', prescription: '处方', other: '其他' },
    genders: { M: '男', F: '女', O: '其他' },
  },
  en: {
    documentTitle: 'Consultation report',
    title: 'Title',
    patient: 'Patient',
    name: 'Name',
    gender: 'Gender',
    age: 'Age',
    tel: 'Phone',
    contactHospital: 'Contact hospital',
    sourceBucket: 'Requesting organization',
    targetBucket: 'Consulting organization',
    scheduledAt: 'Scheduled',
    status: 'Status',
    created: 'Requested',
    creator: 'Requested by',
    reason: 'Reason',
    note: 'Note',
    clinicImpression: 'Clinical impression',
    cases: 'Case documents',
    exams: 'Bound exams',
    examName: 'Name',
    modality: 'Modality',
    bodyPart: 'Body part',
    studyDate: 'Study date',
    suggestion: 'Suggestion',
    treatmentPlan: 'Treatment plan',
    result: 'Conclusion',
    resultBy: 'Written by',
    experts: 'Experts',
    joiners: 'Joiners',
    rating: 'Rating',
    ratingComment: 'Comment',
    cancelReason: 'Cancel reason',
    printedAt: 'Printed',
    none: 'None',
    files: (n) => `${n} file${n === 1 ? '' : 's'}`,
    stars: (n) => `${n} star${n === 1 ? '' : 's'}`,
    statuses: { pending: 'Pending', scheduled: 'Scheduled', completed: 'Completed', canceled: 'Canceled' },
    caseTypes: {
      record: 'Medical record',
      lab: 'Lab test',
      pathology: 'Pathology',
      imaging: 'Imaging',
      prescription: 'Prescription',
      other: 'Other',
    },
    genders: { M: 'Male', F: 'Female', O: 'Other' },
  },
  tib: {
    documentTitle: 'གྲོས་བསྡུར་སྙན་ཞུ།',
    title: 'ཁ་བྱང་།',
    patient: 'ནད་པའི་ཆ་འཕྲིན།',
    name: 'མིང་།',
    gender: 'ཕོ་མོ།',
    age: 'ལོ་ཚད།',
    tel: 'ཁ་པར།',
    contactHospital: 'འབྲེལ་གཏུག་སྨན་ཁང་།',
    sourceBucket: 'རེ་ཞུ་བྱེད་ས།',
    targetBucket: 'གྲོས་བསྡུར་ལས་ཁུངས།',
    scheduledAt: 'གྲོས་བསྡུར་དུས་ཚོད།',
    status: 'གནས་སྟངས།',
    created: 'རེ་ཞུའི་དུས།',
    creator: 'རེ་ཞུ་བྱེད་མཁན།',
    reason: 'རྒྱུ་མཚན།',
    note: 'མཆན།',
    clinicImpression: 'འཁྲུལ་བཤེར་ཐག་གཅོད།',
    cases: 'ནད་ཐོའི་ཡིག་ཆ།',
    exams: 'འབྲེལ་ཡོད་ཞིབ་བཤེར།',
    examName: 'མིང་།',
    modality: 'སྒྲིག་ཆས་རིགས།',
    bodyPart: 'ལུས་ཕུང་ཆ་ཤས།',
    studyDate: 'ཞིབ་བཤེར་ཚེས་གྲངས།',
    suggestion: 'གྲོས་བསྡུར་བསམ་འཆར།',
    treatmentPlan: 'བཅོས་ཐབས།',
    result: 'གྲོས་བསྡུར་མཇུག་སྡོམ།',
    resultBy: 'འབྲི་མཁན།',
    experts: 'ཆེད་མཁས་པ།',
    joiners: 'ཞུགས་མཁན།',
    rating: 'གདེང་འཇོག',
    ratingComment: 'བསམ་འཆར།',
    cancelReason: 'མེད་པར་བཏང་བའི་རྒྱུ་མཚན།',
    printedAt: 'པར་སྐྲུན་དུས།',
    none: 'མེད།',
    files: (n) => `ཡིག་ཆ་ ${n}`,
    stars: (n) => `སྐར་མ་ ${n}`,
    statuses: {
      pending: 'དང་ལེན་སྒུག་བཞིན།',
      scheduled: 'གཏན་འཁེལ་ཟིན།',
      completed: 'ལེགས་གྲུབ།',
      canceled: 'མེད་པར་བཏང་ཟིན།',
    },
    caseTypes: {
      record: 'ནད་ཐོ།',
      lab: 'ཚོད་ལྟ།',
      pathology: 'ནད་རྟགས་རིག་པ།',
      imaging: 'པར་རིས།',
      prescription: 'སྨན་ཐོ།',
      other: 'གཞན།',
    },
    genders: { M: 'ཕོ།', F: 'མོ།', O: 'གཞན།' },
  },
};

/** An instant as China's clocks show it (UTC+8), "YYYY-MM-DD HH:MM"; '' for none. */
export function chinaTime(at: Date | null | undefined): string {
  if (!at) return '';
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
}
