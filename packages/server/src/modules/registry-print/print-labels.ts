import { ORDER_TEMPLATE_FIELD_NAMES, type Language, type OrderTemplateField } from '@yyp/contracts';

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
    fields: ORDER_TEMPLATE_FIELD_NAMES.chs,
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
    fields: ORDER_TEMPLATE_FIELD_NAMES.en,
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
    fields: ORDER_TEMPLATE_FIELD_NAMES.tib,
    genders: { M: 'ཕོ།', F: 'མོ།', O: 'གཞན།', U: 'མི་ཤེས།', MS: 'ཕོ། (རིགས་རྒྱུད་བཅད།)', FS: 'མོ། (རིགས་རྒྱུད་བཅད།)' },
    sources: { I: 'ནང་ནད།', O: 'ཕྱི་ནད།', E: 'ཛ་དྲག', P: 'གཟུགས་ཞིབ།', NO: 'མཚན་མོའི་སྨན་ཁང་།' },
  },
};
