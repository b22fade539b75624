import { ORDER_TEMPLATE_FIELD_NAMES } from '@yyp/contracts';

/** English: the front desk's labels and referral forms (/registry). */
export const registryPrintEn = {
  registryPrint: {
    labels: 'Print labels ({{count}})',
    referralForms: 'Print referral forms ({{count}})',
    label: 'Label',
    referralForm: 'Referral form',
    labelPrinter: 'Label printer, 80×50 mm',
    labelSheet: 'A4 sheet, 10 labels a page',
    download: 'Download PDF',
    copies: 'Copies of each label',
    copiesUnit: 'copies',
    labelMore: 'More label printing',
    formMore: 'More referral form printing',
    opened: 'The PDF opened in a new tab: print it from there.',
    saved: 'The PDF was saved.',
    notSameDay: 'Referral forms merge only exams scheduled on the same day: select exams of one day.',
    differentOrganizations: 'Select exams of one organization.',
    cancelled: 'A cancelled exam has no label or referral form.',
    tooMany: 'At most {{max}} exams print at once.',
    template: {
      title: 'Referral form template',
      description:
        'What the front desk’s referral forms print: the header, the title, the fields and a note at the foot.',
      isDefault:
        'The default: the hospital and organization names, the standard title and the usual fields. Save to change it.',
      titleField: 'Title',
      titlePlaceholder: 'Examination request',
      headerLines: 'Header lines',
      headerLinesHelp: 'One line each, at most {{max}} lines of {{length}} characters.',
      tooManyLines: 'At most {{max}} lines of {{length}} characters.',
      fields: 'Fields shown',
      footerNote: 'Note at the foot',
      saved: 'The referral form template was saved.',
      updated: 'Saved by {{name}} at {{time}}',
    },
    fields: {
      ...ORDER_TEMPLATE_FIELD_NAMES.en,
      barcode: 'Barcodes of the accession numbers',
    },
  },
};
