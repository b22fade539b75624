/** English: the group's report table colours (settings card) as the lists show them. */
export const reportColorsEn = {
  reportColors: {
    title: 'Report table colours',
    description:
      'Colours of the report status in the study list and the reporting worklist. The first matching colour wins; a lower priority number comes first.',
    add: 'Add colour',
    newTitle: 'New report colour',
    editTitle: 'Edit report colour',
    name: 'Name',
    field: 'Matches',
    value: 'Value',
    status: 'Report status',
    color: 'Text colour',
    background: 'Background',
    priority: 'Priority',
    sample: 'Sample',
    matches: 'Matches',
    deleteConfirm: 'Delete the colour {{name}}?',
    saved: 'Colour {{name}} saved',
    deleted: 'Colour {{name}} deleted',
    empty: 'No report colours yet; report statuses show in their default colours.',
    valueRequired: 'Choose what the colour matches',
    invalidValue: 'The server did not accept this value',
    fields: {
      status: 'Report status',
      critical: 'Open critical value',
      positive: 'Positive finding',
      urgent: 'Urgent exam',
    },
    flag: { true: 'Yes', false: 'No' },
  },
};
