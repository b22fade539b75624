/** English: the critical-value and quality-control review screens (across reports). */
export const safetyReviewEn = {
  safetyReview: {
    allOrganizations: 'All organizations',
    organization: 'Organization',
    period: 'Period',
    patient: 'Patient',
    exam: 'Exam',
    openReport: 'Open report',
    critical: {
      title: 'Critical values',
      subtitle:
        'Critical values of your organizations: record the ordering side’s read-back, then close them once handled.',
      state: 'State',
      allStatuses: 'All states',
      value: 'Critical value',
      sent: 'Reported',
      received: 'Received (read-back)',
      handled: 'Handled',
      empty: 'No critical values match.',
      stats: {
        label: 'Critical value statistics',
        total: 'Total',
        medianToReceive: 'Median to read-back',
        medianToHandle: 'Median to handling',
        minutes: '{{value}} min',
        period: 'Sent {{from}} – {{to}} in {{organization}}',
      },
    },
    quality: {
      title: 'Quality control',
      subtitle: 'Graded reports of your organizations, newest grading first. Open a row to read the report.',
      allLevels: 'All grades',
      level: 'Grade',
      suggestion: 'Suggestion',
      items: 'Unsatisfactory items',
      reviewer: 'Reviewer',
      gradedAt: 'Graded',
      reportStatus: 'Report',
      empty: 'No graded reports match.',
      noOrganization: 'You review quality in no organization.',
    },
  },
};
