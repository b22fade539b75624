import { useParams } from 'react-router';
import { ReportEditorPage } from '../features/reports/ReportEditorPage';
import { ShareReportButton } from '../features/sharing/ShareReportButton';

/**
 * /studies/:examId/reports/:reportId — a fresh editor for every report opened, with the sharing
 * feature's share button in its action bar (one feature's button in another's screen is composed
 * here: a feature imports no other feature).
 */
export function ReportEditorRoute() {
  const { examId = '', reportId = '' } = useParams();
  return (
    <ReportEditorPage
      key={reportId}
      examId={examId}
      reportId={reportId}
      shareButton={(report) => <ShareReportButton report={report} />}
    />
  );
}
