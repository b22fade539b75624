import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Report } from '@yyp/contracts';
import { Alert, App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addCoExams } from '../../api/reports';
import { useNotify } from '../../shared/notify/useNotify';
import { currentLanguage } from '../../i18n';
import { studyKeys } from '../../shared/queries/studyQueries';
import { combinableList, combineNoticeText, offersCombine } from './combine';
import { reportKeys } from './useReportEditor';

interface CombineNoticeProps {
  report: Report;
  writable: boolean;
  /** the caller holds report_co_exam in the exam's organization */
  canCombine: boolean;
}

/**
 * autoCheckCombineReport: the patient's other exams of the day that nobody reported, offered to be
 * written in this report (POST reports/{id}/co-exams/add, for good). Closing it hides it until the
 * editor is opened again.
 */
export function CombineNotice({ report, writable, canCombine }: CombineNoticeProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [dismissed, setDismissed] = useState(false);
  const exams = report.combinable;
  const combine = useMutation({
    mutationFn: () =>
      addCoExams(
        report.id,
        exams.map((e) => e.examId),
      ),
    onSuccess: async () => {
      notify.success(t('report.combine.done', { count: exams.length }));
      // The report answers with its grown examIds; the exam's detail and co-exams change too.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: reportKeys.detail(report.id) }),
        queryClient.invalidateQueries({ queryKey: studyKeys.all }),
      ]);
    },
    onError: notify.error,
  });

  if (dismissed || !offersCombine(report, writable, canCombine)) {
    return null;
  }

  function handleCombine() {
    modal.confirm({
      title: t('report.combine.confirmTitle'),
      content: t('report.combine.confirmContent', { exams: combinableList(exams, currentLanguage()) }),
      okText: t('report.combine.action'),
      // The error (a CoExamConflict, say) is a toast; the dialog closes either way.
      onOk: () => combine.mutateAsync().catch(() => undefined),
    });
  }

  return (
    <Alert
      type="info"
      showIcon
      className="yyp-report__combine"
      data-testid="combine-notice"
      title={combineNoticeText(t, currentLanguage(), exams)}
      action={
        <Button size="small" type="primary" ghost loading={combine.isPending} onClick={handleCombine}>
          {t('report.combine.action')}
        </Button>
      }
      closable={{ 'aria-label': t('report.combine.dismiss'), onClose: () => setDismissed(true) }}
    />
  );
}
