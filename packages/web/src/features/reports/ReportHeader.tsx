import { ArrowLeftOutlined, CommentOutlined, LockOutlined } from '@ant-design/icons';
import type { ExamDetail, Report } from '@yyp/contracts';
import { Alert, App, Button, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { isEditable } from '@yyp/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useNotify } from '../../shared/notify/useNotify';
import { formatStudyTime } from '../../shared/format/dates';
import { useStudyLabels } from '../../shared/labels/studyLabels';
import { useHolds } from '../../shared/permissions/permissions';
import { ReportStatusTag } from '../../shared/labels/ReportStatusTag';
import { isFromExperts } from './fromExperts';
import type { ReportEditor } from './useReportEditor';
import { usePersonName } from '../../ui/usePersonName';

interface ReportHeaderProps {
  exam: ExamDetail | undefined;
  report: Report;
  editor: ReportEditor;
}

/** The exam the report is about, the report's status and who holds its lock. */
export function ReportHeader({ exam, report, editor }: ReportHeaderProps) {
  const { t } = useTranslation();
  const personName = usePersonName();
  const { modal } = App.useApp();
  const notify = useNotify();
  const labels = useStudyLabels();
  const holder = editor.lockHolder;
  // Requesting a consultation from the report (issue 25): its form starts from this exam and binds it.
  const mayConsult = useHolds('consultation_create', exam?.bucketId ?? null);
  const consultPath = exam
    ? `/consultations/add?${new URLSearchParams({ examId: exam.id, reportId: report.id }).toString()}`
    : '';

  function handleForceUnlock() {
    modal.confirm({
      title: t('report.lock.forceUnlock'),
      content: t('report.lock.forceUnlockConfirm', { name: holder ?? '' }),
      okButtonProps: { danger: true },
      onOk: () => editor.forceUnlock().then(() => notify.success(t('report.lock.forceUnlocked')), notify.error),
    });
  }

  return (
    <header className="yyp-report__header">
      <div className="yyp-report__patient">
        <Tooltip title={t('report.backToList')}>
          <Link to="/studies" aria-label={t('report.backToList')} className="yyp-report__back">
            <ArrowLeftOutlined />
          </Link>
        </Tooltip>
        {exam ? (
          <Space size={[12, 4]} wrap>
            <Typography.Title level={4} className="yyp-report__name">
              {personName(exam.patientName) || exam.patientId}
            </Typography.Title>
            <span>{labels.gender(exam.patientGender)}</span>
            <span>{labels.age(exam.age)}</span>
            <Tag>{exam.modality.replace(/\\/g, '/')}</Tag>
            <span>{exam.bodyPart || exam.studyDesc}</span>
            <Typography.Text type="secondary">
              {t('report.header.examTime')}: {formatStudyTime(exam.studyDate, exam.studyTime, exam.created)}
            </Typography.Text>
            {exam.urgentFlag && <Tag color="red">{t('report.header.urgent')}</Tag>}
            <ReportStatusTag status={report.status} />
            {mayConsult && (
              <Link to={consultPath} data-testid="request-consultation">
                <CommentOutlined /> {t('consultations.request')}
              </Link>
            )}
            {report.examIds.length > 1 && (
              <Tag color="blue" data-testid="co-written">
                {t('report.combine.headerTag', { count: report.examIds.length - 1 })}
              </Tag>
            )}
          </Space>
        ) : (
          <Skeleton.Input active size="small" />
        )}
      </div>
      {exam && (
        <Typography.Paragraph className="yyp-report__impression" ellipsis={{ rows: 2, expandable: true }}>
          <Typography.Text type="secondary">{t('report.header.clinicImpression')}: </Typography.Text>
          {exam.clinicImpression || t('report.header.none')}
        </Typography.Paragraph>
      )}
      {(holder || editor.lockPhase === 'lost') && (
        <Alert
          type="warning"
          showIcon
          icon={<LockOutlined />}
          role="status"
          title={holder ? t('report.lock.lockedBy', { name: holder }) : t('report.lock.readOnly')}
          description={
            editor.lockPhase === 'lost' ? t('report.lock.lost') : t('report.lock.lockedHint', { name: holder ?? '' })
          }
          action={
            <Space orientation="vertical">
              {report.canForceUnlock && report.lock && !report.lock.mine && (
                <Button size="small" danger onClick={handleForceUnlock}>
                  {t('report.lock.forceUnlock')}
                </Button>
              )}
              {editor.lockPhase === 'lost' && (
                <Button size="small" onClick={() => void editor.reload()}>
                  {t('report.lock.reload')}
                </Button>
              )}
            </Space>
          }
        />
      )}
      {isFromExperts(report) ? (
        <Alert
          type="info"
          showIcon
          icon={<LockOutlined />}
          title={t('report.lock.fromExperts')}
          data-testid="from-experts"
        />
      ) : (
        !holder &&
        editor.lockPhase !== 'released' &&
        !isEditable(report.transitions) && (
          <Alert type="info" showIcon title={t('report.lock.notEditable')} data-testid="not-editable" />
        )
      )}
      {!holder && editor.lockPhase === 'released' && (
        <Alert
          type="info"
          showIcon
          title={t('report.lock.released')}
          action={
            <Button size="small" type="primary" onClick={editor.editAgain}>
              {t('report.lock.editAgain')}
            </Button>
          }
        />
      )}
    </header>
  );
}
