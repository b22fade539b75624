import { REPORT_SHEET_LABELS } from '@yyp/contracts';

/** English: the print page of a report and the organization's print template. */
export const reportPrintEn = {
  reportPrint: {
    page: {
      title: 'Print report',
      print: 'Print',
      download: 'Download PDF',
      back: 'Back to the report',
      printed: 'Printed',
      recorded: 'The print was recorded.',
      masked: 'Private patient fields are masked: you cannot view them in this organization.',
      noTemplate: 'Ask an administrator of the organization to set the print template (Organization → Settings).',
    },
    // the sheet's labels are the contracts' table, which the server's PDF prints too
    sheet: {
      ...REPORT_SHEET_LABELS.en,
      keyImage: 'Key image {{index}}',
    },
    editor: {
      print: 'Print',
      printTip: 'Open the print view of this report',
    },
    template: {
      title: 'Print template',
      description: 'How this organization’s reports print: header, pictures, key image columns and footer.',
      isDefault:
        'Reports print with the standard template: the hospital and organization names below, the standard title, no logo, stamp or footer. Change it and save to make it this organization’s own.',
      hospitalName: 'Hospital name',
      reportTitle: 'Report title',
      reportTitlePlaceholder: REPORT_SHEET_LABELS.en.defaultTitle,
      logo: 'Logo',
      logoHint: 'PNG or JPEG, 128×128 pixels prints best.',
      stamp: 'Stamp',
      stampHint: 'PNG, best with a transparent background.',
      upload: 'Upload',
      remove: 'Remove',
      footer: 'Footer',
      footerHint: 'Printed as plain text: markup tags are dropped.',
      imageColumns: 'Key images per row',
      showSignatures: 'Print signature pictures',
      save: 'Save the template',
      saved: 'The print template was saved.',
      logoSize: 'The logo is {{width}}×{{height}} pixels; 128×128 prints best.',
      updatedBy: 'Last changed by {{name}} at {{time}}',
    },
  },
};
