/** English: the selected studies exported as one DICOM disc (CD/DVD media with a DICOMDIR). */
export const studyMediaEn = {
  studyMedia: {
    action: 'Export DICOM disc ({{count}})',
    tip: 'Download the selected studies as one DICOM disc image (a DICOMDIR and the image files, to burn to a CD or DVD)',
    selectHint: 'Select studies to export them together as one DICOM disc.',
    none: 'You cannot download the images of the selected studies.',
    someLeft: '{{count}} of the selected studies cannot be downloaded by you and are left out.',
    tooMany: 'At most {{max}} studies go on one disc: choose fewer.',
    started: 'The download of {{count}} studies has started.',
  },
};
