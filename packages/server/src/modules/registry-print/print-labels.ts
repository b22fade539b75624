import type { Language, OrderTemplateField } from '@yyp/contracts';

/**
 * The captions a label and a referral form print, in the three interface languages (the
 * registry form's own words: web i18n/registry). What the desk typed prints as typed.
 */
export interface DeskPrintLabels {
  formTitle: string;
  name: string;
  accessionNumber: string;
  procedure: string;
  modality: string;
  bodyPart: string;
  scheduled: string;
  device: string;
  exams: string;
  urgent: string;
  age: (years: number) => string;
  printedAt: string;
  fields: Record<Exclude<OrderTemplateField, 'barcode'>, string>;
  genders: Record<string, string>;
  sources: Record<string, string>;
}

export const DESK_PRINT_LABELS: Record<Language, DeskPrintLabels> = {
  chs: {
    formTitle: '检查申请单',
    name: '姓名',
    accessionNumber: '检查号',
    procedure: '检查项目',
    modality: '设备类型',
    bodyPart: '检查部位',
    scheduled: '预约时间',
    device: '设备',
    exams: '检查',
    urgent: '急',
    age: (y) => `${y}岁`,
    printedAt: '打印时间',
    fields: {
      patientId: '病人编号',
      gender: '性别',
      age: '年龄',
      birthDate: '出生日期',
      phone: '电话',
      idCard: '身份证号',
      address: '地址',
      patientSource: '病人来源',
      outpatientId: '门诊号',
      inpatientId: '住院号',
      bedNum: '床号',
      physicalExamId: '体检号',
      applyDept: '申请科室',
      orderPlacer: '申请医生',
      weight: '体重(kg)',
      height: '身高(cm)',
      clinicImpression: '临床诊断',
      note: '备注',
      passCode: '取号码',
    },
    genders: { M: '男', F: '女', O: '其他', U: '未知', MS: '雄(绝育)', FS: '雌(绝育)' },
    sources: { I: '住院', O: '门诊', E: '急诊', P: '体检', NO: '夜诊' },
  },
  en: {
    formTitle: 'Examination request',
    name: 'Name',
    accessionNumber: 'Accession No.',
    procedure: 'Procedure',
    modality: 'Modality',
    bodyPart: 'Body part',
    scheduled: 'Scheduled',
    device: 'Device',
    exams: 'Exams',
    urgent: 'URGENT',
    age: (y) => `${y} y`,
    printedAt: 'Printed',
    fields: {
      patientId: 'Patient ID',
      gender: 'Gender',
      age: 'Age',
      birthDate: 'Birth date',
      phone: 'Phone',
      idCard: 'ID card',
      address: 'Address',
      patientSource: 'Patient source',
      outpatientId: 'Outpatient ID',
      inpatientId: 'Inpatient ID',
      bedNum: 'Bed',
      physicalExamId: 'Physical exam ID',
      applyDept: 'Department',
      orderPlacer: 'Ordering physician',
      weight: 'Weight (kg)',
      height: 'Height (cm)',
      clinicImpression: 'Clinical diagnosis',
      note: 'Note',
      passCode: 'Pass code',
    },
    genders: { M: 'M', F: 'F', O: 'O', U: 'U', MS: 'M (neutered)', FS: 'F (spayed)' },
    sources: { I: 'Inpatient', O: 'Outpatient', E: 'Emergency', P: 'Physical exam', NO: 'Night clinic' },
  },
  tib: {
    formTitle: 'ཞིབ་བཤེར་རེ་ཞུ་འགེངས་ཤོག',
    name: 'མིང་།',
    accessionNumber: 'ཞིབ་བཤེར་ཨང་།',
    procedure: 'ཞིབ་བཤེར་རྣམ་གྲངས།',
    modality: 'སྒྲིག་ཆས་རིགས།',
    bodyPart: 'ལུས་ཕུང་ཆ་ཤས།',
    scheduled: 'དུས་འཆར།',
    device: 'སྒྲིག་ཆས།',
    exams: 'ཞིབ་བཤེར།',
    urgent: 'འཚབ།',
    age: (y) => `ལོ་ ${y}`,
    printedAt: 'པར་སྐྲུན་དུས།',
    fields: {
      patientId: 'ནད་པའི་ཨང་།',
      gender: 'ཕོ་མོ།',
      age: 'ལོ་ཚད།',
      birthDate: 'སྐྱེས་ཚེས།',
      phone: 'ཁ་པར།',
      idCard: 'ཐོབ་ཐང་ལག་ཁྱེར་ཨང་།',
      address: 'སྡོད་གནས།',
      patientSource: 'ནད་པའི་འབྱུང་ཁུངས།',
      outpatientId: 'ཕྱི་ནད་ཨང་།',
      inpatientId: 'ནང་ནད་ཨང་།',
      bedNum: 'ཉལ་ཁྲི་ཨང་།',
      physicalExamId: 'གཟུགས་ཞིབ་ཨང་།',
      applyDept: 'རེ་ཞུ་སྡེ་ཚན།',
      orderPlacer: 'རེ་ཞུ་སྨན་པ།',
      weight: 'ལྗིད་ཚད། (kg)',
      height: 'བོང་ཚད། (cm)',
      clinicImpression: 'སྨན་བཅོས་ཐག་གཅོད།',
      note: 'མཆན།',
      passCode: 'འཛུལ་ཨང་།',
    },
    genders: { M: 'ཕོ།', F: 'མོ།', O: 'གཞན།', U: 'མི་ཤེས།', MS: 'ཕོ། (རིགས་རྒྱུད་བཅད།)', FS: 'མོ། (རིགས་རྒྱུད་བཅད།)' },
    sources: { I: 'ནང་ནད།', O: 'ཕྱི་ནད།', E: 'ཛ་དྲག', P: 'གཟུགས་ཞིབ།', NO: 'མཚན་མོའི་སྨན་ཁང་།' },
  },
};
