import type { Report } from '@yyp/contracts';
import { Descriptions, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { ReportFeedback } from '../safety/ReportSafetyPanel';

/**
 * What reviewers said on this report: the reasons for rejection and recall, the advice asked for,
 * then its ratings and comments.
 */
export function CommentsTab({ report }: { report: Report }) {
  const { t } = useTranslation();
  const experts = report.adviceExperts.map((e) => e.name).join(', ');
  const items = [
    report.rejectReason && { key: 'reject', label: t('report.comments.rejectReason'), text: report.rejectReason },
    report.recallReason && { key: 'recall', label: t('report.comments.recallReason'), text: report.recallReason },
    experts && { key: 'experts', label: t('report.comments.experts'), text: experts },
    report.content.advice && { key: 'advice', label: t('report.comments.advice'), text: report.content.advice },
  ].filter((item): item is { key: string; label: string; text: string } => Boolean(item));
  return (
    <div className="yyp-report__stack">
      {items.length === 0 ? (
        <Empty description={t('report.comments.empty')} />
      ) : (
        <Descriptions size="small" column={1} bordered>
          {items.map((item) => (
            <Descriptions.Item key={item.key} label={item.label}>
              <span className="yyp-report__prewrap" data-testid={`comment-${item.key}`}>
                {item.text}
              </span>
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
      <ReportFeedback report={report} />
    </div>
  );
}
