import { REPORT_SOURCE, type ReportSource } from '@yyp/contracts';
import { Select, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

interface ReportSourceSelectProps {
  value: ReportSource;
  /** a single expert organization: all, and no choice (the tooltip says why) */
  forced: boolean;
  onChange: (value: ReportSource) => void;
}

/** 报告来源: all, own reports or remote reports (spec 000 §6), beside the list's count. */
export function ReportSourceSelect({ value, forced, onChange }: ReportSourceSelectProps) {
  const { t } = useTranslation();
  const select = (
    <Select<ReportSource>
      className="yyp-studies__report-source"
      data-testid="report-source"
      aria-label={t('studyList.reportSource.label')}
      prefix={t('studyList.reportSource.label')}
      value={value}
      disabled={forced}
      popupMatchSelectWidth={false}
      options={[
        { value: REPORT_SOURCE.all, label: t('studyList.reportSource.all') },
        { value: REPORT_SOURCE.report, label: t('studyList.reportSource.own') },
        { value: REPORT_SOURCE.remote, label: t('studyList.reportSource.remote') },
      ]}
      onChange={onChange}
    />
  );
  if (!forced) return select;
  return (
    <Tooltip title={t('studyList.reportSource.forced')}>
      <span data-testid="report-source-forced">{select}</span>
    </Tooltip>
  );
}
