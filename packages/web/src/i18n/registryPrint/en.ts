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
    labelMore: 'More label printing',
    formMore: 'More referral form printing',
    opened: 'The PDF opened in a new tab: print it from there.',
    saved: 'The PDF was saved.',
    notSameDay: 'Referral forms merge only exams scheduled on the same day: select exams of one day.',
    differentOrganizations: 'Select exams of one organization.',
    cancelled: 'A cancelled exam has no label or referral form.',
    tooMany: 'At most {{max}} exams print at once.',
  },
};
