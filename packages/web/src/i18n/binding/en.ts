/** English: matching and binding an exam's images to a scheduled exam (study list row menu). */
export const bindingEn = {
  binding: {
    menu: 'Match to scheduled exam',
    title: 'Match to a scheduled exam',
    intro: 'Choose the scheduled exam of {{org}} these images belong to.',
    search: 'Name, patient ID or accession number',
    empty: 'No scheduled exam to match.',
    loadFailed: 'The scheduled exams could not be loaded.',
    column: {
      patient: 'Patient',
      accession: 'Accession',
      procedure: 'Procedure',
      scheduled: 'Scheduled',
      status: 'Status',
      images: 'Images',
    },
    hasImages: '{{count}} images',
    noImages: 'None',
    replaceWarning:
      'This scheduled exam has {{count}} images already. Binding deletes them and what was derived from them (AI results, key images, the study package); its report is kept.',
    needsAdmin: 'Only an organization admin can replace the images of a scheduled exam.',
    confirmLabel: 'Type the accession number {{accession}} to confirm',
    confirmMismatch: 'The accession number does not match.',
    ok: 'Match',
    okReplace: 'Replace images',
    done: 'Matched to {{accession}}.',
    doneReplaced: 'Bound to {{accession}}; {{count}} former images deleted.',
  },
};
