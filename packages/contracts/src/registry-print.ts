import { z } from 'zod';
import { LANGUAGES, type Language } from './limits.js';

/**
 * The front desk's printing (spec 000 §2 /registry "label printing, referral form printing", §5
 * "printing sheets: selected checks must be on the same day to be merged", §9 "label 80x50 mm";
 * issue 22): labels with the accession number's barcode, and referral forms on the
 * organization's template (spec 001 §7 "Buckets … order-template").
 */

/** The label's size (spec 000 §9), in millimetres. */
export const LABEL_WIDTH_MM = 80;
export const LABEL_HEIGHT_MM = 50;
/** Scheduled exams one print may name: a day's batch at a desk, not the whole list. */
export const MAX_PRINT_EXAMS = 50;
export const MAX_LABEL_COPIES = 5;
/**
 * `label`: one 80×50 mm label per page, for a label (thermal) printer; `sheet`: A4 pages of
 * 80×50 mm labels, 2 across and 5 down, for an office printer and label paper.
 */
export const LABEL_LAYOUTS = ['label', 'sheet'] as const;
export type LabelLayout = (typeof LABEL_LAYOUTS)[number];

const scheduledIds = z.array(z.string().max(64)).min(1).max(MAX_PRINT_EXAMS);
const lang = z.enum(LANGUAGES).default('chs');

/** POST orders/labels: the labels of scheduled exams, answered as a PDF. */
export const labelsRequestSchema = z
  .object({
    scheduledIds,
    copies: z.number().int().min(1).max(MAX_LABEL_COPIES).default(1),
    layout: z.enum(LABEL_LAYOUTS).default('label'),
    lang,
  })
  .strict();
export type LabelsRequest = z.input<typeof labelsRequestSchema>;

/** POST orders/referral-forms: one form per registration, its selected exams of one day, as a PDF. */
export const referralFormsRequestSchema = z.object({ scheduledIds, lang }).strict();
export type ReferralFormsRequest = z.input<typeof referralFormsRequestSchema>;

/** The fields a referral form may show, in the order it shows them. */
export const ORDER_TEMPLATE_FIELDS = [
  'patientId',
  'gender',
  'age',
  'birthDate',
  'phone',
  'idCard',
  'address',
  'patientSource',
  'outpatientId',
  'inpatientId',
  'bedNum',
  'physicalExamId',
  'applyDept',
  'orderPlacer',
  'weight',
  'height',
  'clinicImpression',
  'note',
  'barcode',
  'passCode',
] as const;
export type OrderTemplateField = (typeof ORDER_TEMPLATE_FIELDS)[number];

/**
 * The names of a referral form's fields in the three interface languages: printed on the form
 * and offered in the template's settings (web i18n registryPrint reads them from here).
 */
export const ORDER_TEMPLATE_FIELD_NAMES: Record<Language, Record<Exclude<OrderTemplateField, 'barcode'>, string>> = {
  chs: {
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
  en: {
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
  tib: {
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
};

/** What a form shows until the organization's admin saves a template of its own. */
export const DEFAULT_ORDER_TEMPLATE_FIELDS: readonly OrderTemplateField[] = [
  'patientId',
  'gender',
  'age',
  'phone',
  'patientSource',
  'outpatientId',
  'inpatientId',
  'bedNum',
  'applyDept',
  'orderPlacer',
  'clinicImpression',
  'note',
  'barcode',
  'passCode',
];

export const ORDER_TEMPLATE_TITLE_MAX = 64;
export const ORDER_TEMPLATE_HEADER_LINES_MAX = 3;
export const ORDER_TEMPLATE_HEADER_LINE_MAX = 100;
export const ORDER_TEMPLATE_FOOTER_MAX = 500;

const text = (max: number) => z.string().trim().max(max);

/** PUT buckets/{id}/order-template (organization admins): the referral form's template. */
export const orderTemplateInputSchema = z
  .object({
    /** empty: the standard title in the form's language (检查申请单, Examination request, …) */
    title: text(ORDER_TEMPLATE_TITLE_MAX).default(''),
    /** printed centred above the title: the hospital, the department, an address */
    headerLines: z.array(text(ORDER_TEMPLATE_HEADER_LINE_MAX)).max(ORDER_TEMPLATE_HEADER_LINES_MAX).default([]),
    fields: z
      .array(z.enum(ORDER_TEMPLATE_FIELDS))
      .max(ORDER_TEMPLATE_FIELDS.length)
      .refine((f) => new Set(f).size === f.length, 'each field once'),
    /** printed at the foot of the form (preparation, where to go) */
    footerNote: text(ORDER_TEMPLATE_FOOTER_MAX).default(''),
  })
  .strict();
export type OrderTemplateInput = z.input<typeof orderTemplateInputSchema>;

export const orderTemplateSchema = z.object({
  bucketId: z.string(),
  title: z.string(),
  headerLines: z.array(z.string()),
  fields: z.array(z.enum(ORDER_TEMPLATE_FIELDS)),
  footerNote: z.string(),
  /** true until the organization's admin saves one (then the default's header is its names) */
  isDefault: z.boolean(),
  updatedAt: z.string().nullable(),
  /** the name of who saved it */
  updatedBy: z.string().nullable(),
});
export type OrderTemplate = z.infer<typeof orderTemplateSchema>;
