import type { Report } from '@yyp/contracts';
import { CriticalValuesSection } from './CriticalValuesSection';
import { QualitySection } from './QualitySection';
import { RatingsSection } from './RatingsSection';
import { ReportCommentsSection } from './ReportCommentsSection';
import './safety.css';

/** The info tab's clinical-safety sections: critical values first, then the quality grade. */
export function ReportSafetyPanel({ report }: { report: Report }) {
  return (
    <div className="yyp-safety__stack yyp-safety__stack--top">
      <CriticalValuesSection report={report} />
      <QualitySection report={report} />
    </div>
  );
}

/** The comments tab's reviewer sections: ratings and the report comments. */
export function ReportFeedback({ report }: { report: Report }) {
  return (
    <div className="yyp-safety__stack">
      <RatingsSection report={report} />
      <ReportCommentsSection report={report} />
    </div>
  );
}
