import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RELEASING_ACTIONS, VIEWER_WINDOW, type Report, type ReportAction, type ReportTemplate } from '@yyp/contracts';
import { App, Button, Dropdown, Skeleton } from 'antd';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchExamDetail, viewerPath } from '../../api/exams';
import { hasCode } from '../../api/errors';
import { errorMessage } from '../../api/errorMessage';
import { fetchWorklist } from '../../api/reports';
import { useNotify } from '../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { studyKeys } from '../../shared/queries/studyQueries';
import type { ActionButton } from './actionButtons';
import { AdviseDialog } from './AdviseDialog';
import { CombineNotice } from './CombineNotice';
import { ConflictDialog } from './ConflictDialog';
import { imageFromClipboard } from './keyImages';
import { LeaveGuard } from './LeaveGuard';
import { LibraryPanel } from './library/LibraryPanel';
import { useImageDescTemplates } from './library/useLibrary';
import { ReasonDialog } from './ReasonDialog';
import { ReportActionBar, useActionButtons } from './ReportActionBar';
import { ReportHeader } from './ReportHeader';
import { ReportSidePanel, type SideTab } from './ReportSidePanel';
import { ReportTextEditors } from './ReportTextEditors';
import { printPath } from './print/printing';
import { shortcutCommand } from './shortcuts';
import { useKeyImages } from './useKeyImages';
import { reportKeys, useReportEditor, type ActionExtra } from './useReportEditor';
import { useTextTargets } from './useTextTargets';
import './reports.css';

const LIBRARY_KEY = 'yyp.report.library';

/**
 * The report editor (spec 000 §2 "Report page"): exam header, findings and conclusion side by side,
 * the action bar of the server's transitions, the library on the left and the right panel.
 */
export function ReportEditorPage({
  examId,
  reportId,
  shareButton,
}: {
  examId: string;
  reportId: string;
  /** the share button of the action bar (the sharing feature's; app/ hands it in) */
  shareButton?: (report: Report) => ReactNode;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<SideTab>('info');
  const [libraryOpen, setLibraryOpen] = useState(() => localStorage.getItem(LIBRARY_KEY) !== 'closed');
  const [reasonKind, setReasonKind] = useState<'reject' | 'recall' | null>(null);
  const [advising, setAdvising] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const editor = useReportEditor(
    reportId,
    useCallback(
      (error: unknown) => notify.info(t('report.save.autosaveFailed', { message: errorMessage(t, error) })),
      [notify, t],
    ),
  );
  const { report, draft } = editor;
  const buttons = useActionButtons(report);
  const exam = useQuery({
    queryKey: studyKeys.detail(examId),
    queryFn: ({ signal }) => fetchExamDetail(examId, signal),
  });
  const worklist = useQuery({
    queryKey: reportKeys.worklist(reportId),
    queryFn: ({ signal }) => fetchWorklist(reportId, signal),
  });
  const keyImages = useKeyImages(reportId);
  const bucketId = report?.bucketId ?? exam.data?.bucketId ?? '';
  const descTemplates = useImageDescTemplates(bucketId);
  const draftRef = useRef(draft);
  draftRef.current = draft;
  const targets = useTextTargets(
    (field) => draftRef.current?.[field] ?? '',
    (field, value) => editor.change({ [field]: value }),
  );
  const nextExam = (worklist.data ?? []).find((item) => item.examId !== examId) ?? null;

  // An edit tried while another user holds the lock names the holder (one toast, refreshed).
  const lockHolder = editor.lockHolder;
  const showLocked = useCallback(
    (name: string) => void message.warning({ content: t('report.lock.lockedBy', { name }), key: 'report-locked' }),
    [message, t],
  );
  useEffect(() => {
    if (editor.lockPhase === 'refused' && lockHolder) {
      showLocked(lockHolder);
    }
  }, [editor.lockPhase, lockHolder, showLocked]);

  const viewer = useMutation({
    mutationFn: () => viewerPath(examId, 'path', reportId),
    onSuccess: (path) =>
      window.open(path.url, `yyp-viewer-${examId}`, `width=${VIEWER_WINDOW.width},height=${VIEWER_WINDOW.height}`),
    onError: notify.error,
  });

  function refreshAround() {
    void queryClient.invalidateQueries({ queryKey: reportKeys.trace(reportId) });
    void queryClient.invalidateQueries({ queryKey: reportKeys.worklist(reportId) });
    void queryClient.invalidateQueries({ queryKey: studyKeys.all });
  }

  /** Run an action the server allowed; failures other than a conflict (its own dialog) are toasts. */
  async function perform(action: ReportAction, extra: ActionExtra = {}) {
    try {
      await editor.runAction(action, extra);
      notify.success(t(`report.done.${action}`));
      refreshAround();
      if (action === 'approveAndPrint') {
        // Approve-and-print recorded the print with the approval: the print view only prints.
        void navigate(printPath(examId, reportId, { auto: true, recorded: true }));
      }
    } catch (error) {
      if (!hasCode(error, 'ReportVersionConflict')) {
        notify.error(error);
      }
      throw error;
    }
  }

  function handleAction(button: ActionButton) {
    if (button.needsReason) {
      setReasonKind(button.action as 'reject' | 'recall');
    } else if (button.needsExperts) {
      setAdvising(true);
    } else if (RELEASING_ACTIONS.has(button.action) && draft && !draft.findings.trim() && !draft.conclusion.trim()) {
      notify.info(t('report.save.textRequired'));
    } else {
      perform(button.action).catch(() => undefined);
    }
  }

  const handleOpenViewer = () => viewer.mutate();
  const handleOpenExam = (id: string) =>
    void navigate(`/studies/${encodeURIComponent(id)}/reports/${encodeURIComponent(id)}`);
  const handleNext = () => {
    if (nextExam) {
      handleOpenExam(nextExam.examId);
    } else {
      notify.info(t('report.worklist.noNext'));
    }
  };
  const handleToggleLibrary = () =>
    setLibraryOpen((open) => {
      localStorage.setItem(LIBRARY_KEY, open ? 'closed' : 'open');
      return !open;
    });

  function handleApplyTemplate(template: ReportTemplate) {
    const current = draftRef.current;
    const apply = (mode: 'replace' | 'append') => {
      const join = (a: string, b: string) => (mode === 'append' && a.trim() ? `${a.replace(/\s+$/, '')}\n${b}` : b);
      editor.change({
        findings: join(current?.findings ?? '', template.findings),
        conclusion: join(current?.conclusion ?? '', template.conclusion),
      });
      notify.success(t('report.library.applied', { title: template.title }));
    };
    if (!current || (!current.findings.trim() && !current.conclusion.trim())) {
      apply('replace');
      return;
    }
    const dialog = modal.confirm({
      title: t('report.library.replaceTitle'),
      content: t('report.library.replaceContent', { title: template.title }),
      okText: t('report.library.replace'),
      okButtonProps: { danger: true },
      onOk: () => apply('replace'),
      footer: (_, { OkBtn, CancelBtn }) => (
        <>
          <CancelBtn />
          <Button
            onClick={() => {
              apply('append');
              dialog.destroy();
            }}
          >
            {t('report.library.append')}
          </Button>
          <OkBtn />
        </>
      ),
    });
  }

  // Keyboard-first: Ctrl+S, Ctrl+Enter, Ctrl+Shift+Enter, Alt+N and F1, wherever the focus is.
  const keyHandler = useRef<(event: KeyboardEvent) => void>(() => undefined);
  keyHandler.current = (event: KeyboardEvent) => {
    const command = shortcutCommand(event);
    const inDialog =
      reasonKind !== null ||
      advising ||
      editor.conflict !== null ||
      (event.target instanceof Element && event.target.closest('.ant-modal-wrap') !== null);
    if (!command || !report || inDialog) {
      if (command === 'save') {
        event.preventDefault();
      }
      return;
    }
    // A shortcut presses only a button the bar shows.
    const press = (action: ReportAction) => {
      const button = buttons.find((b) => b.action === action);
      if (button && editor.pending === null) {
        handleAction(button);
      }
    };
    event.preventDefault();
    if (command === 'save') {
      if (editor.canSave) {
        press('save');
      }
    } else if (command === 'submit') {
      press('submit');
    } else if (command === 'approve') {
      press('approve');
    } else if (command === 'next') {
      handleNext();
    } else if (command === 'keyImage') {
      setTab('snap');
      if (exam.data?.hasImage) {
        handleOpenViewer();
      } else if (editor.writable) {
        fileInput.current?.click();
      }
    }
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => keyHandler.current(event);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // An image pasted anywhere on the page becomes a key image; pasted text goes where it is pasted.
  const pasteHandler = useRef<(event: ClipboardEvent) => void>(() => undefined);
  pasteHandler.current = (event: ClipboardEvent) => {
    const image = imageFromClipboard(event.clipboardData);
    if (!image || !editor.writable) {
      return;
    }
    event.preventDefault();
    setTab('snap');
    keyImages.addImage(image);
  };
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => pasteHandler.current(event);
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, []);

  if (editor.detail.isError && !report) {
    return (
      <div className="yyp-report yyp-report--message">
        <LoadFailedAlert error={editor.detail.error} onRetry={() => void editor.detail.refetch()} />
      </div>
    );
  }
  if (!report || !draft) {
    return (
      <div className="yyp-report yyp-report--message">
        <Skeleton active paragraph={{ rows: 12 }} />
      </div>
    );
  }

  const modality = exam.data?.modality ?? '';
  const canPrint = exam.data?.actions.includes('report_print') ?? false;
  return (
    <div className="yyp-report">
      <ReportHeader exam={exam.data} report={report} editor={editor} />
      <CombineNotice
        report={report}
        writable={editor.writable}
        canCombine={exam.data?.actions.includes('report_co_exam') ?? false}
      />
      {exam.isError && <LoadFailedAlert error={exam.error} onRetry={() => void exam.refetch()} />}
      <ReportActionBar
        report={report}
        editor={editor}
        hasImages={exam.data?.hasImage ?? false}
        openingViewer={viewer.isPending}
        hasNext={nextExam !== null}
        libraryOpen={libraryOpen}
        onAction={handleAction}
        onOpenViewer={handleOpenViewer}
        onNext={handleNext}
        onToggleLibrary={handleToggleLibrary}
        shareButton={shareButton}
        onPrint={
          canPrint && !['none', 'locked'].includes(report.status)
            ? () => void navigate(printPath(examId, reportId))
            : undefined
        }
      />
      <div className={`yyp-report__body${libraryOpen ? ' yyp-report__body--library' : ''}`}>
        {libraryOpen && bucketId && (
          <LibraryPanel
            bucketId={bucketId}
            modality={modality}
            writable={editor.writable}
            onApplyTemplate={handleApplyTemplate}
            onInsert={(text) => targets.insert(text)}
            selection={targets.selection}
            currentText={() => ({
              findings: draftRef.current?.findings ?? '',
              conclusion: draftRef.current?.conclusion ?? '',
            })}
            onClose={handleToggleLibrary}
          />
        )}
        <ReportTextEditors
          report={report}
          draft={draft}
          writable={editor.writable}
          targets={targets}
          onChange={editor.change}
          onBlockedEdit={lockHolder ? () => showLocked(lockHolder) : undefined}
        />
        <ReportSidePanel
          tab={tab}
          onTab={setTab}
          examId={examId}
          exam={exam.data}
          report={report}
          writable={editor.writable}
          keyImages={keyImages}
          fileInput={fileInput}
          worklist={worklist}
          onOpenExam={handleOpenExam}
          onOpenViewer={handleOpenViewer}
          descTemplates={
            descTemplates.data && descTemplates.data.length > 0
              ? (apply) => (
                  <Dropdown
                    trigger={['click']}
                    menu={{
                      items: descTemplates.data.map((d) => ({ key: d.id, label: d.title })),
                      onClick: ({ key }) => {
                        const found = descTemplates.data.find((d) => d.id === key);
                        if (found) {
                          apply(found.content);
                        }
                      },
                    }}
                  >
                    <Button size="small">{t('report.snap.descTemplate')}</Button>
                  </Dropdown>
                )
              : undefined
          }
        />
      </div>
      <ReasonDialog
        kind={reasonKind}
        onSubmit={(reason) => perform(reasonKind ?? 'reject', { reason })}
        onClose={() => setReasonKind(null)}
      />
      <AdviseDialog
        reportId={reportId}
        open={advising}
        onSubmit={(expertIds) => perform('advise', { expertIds })}
        onClose={() => setAdvising(false)}
      />
      <ConflictDialog
        conflict={editor.conflict}
        mine={draft}
        onResolve={(choice) =>
          void editor.resolveConflict(choice).catch((error: unknown) => {
            if (!hasCode(error, 'ReportVersionConflict')) {
              notify.error(error);
            }
          })
        }
      />
      <LeaveGuard
        dirty={editor.dirty}
        dirtyNow={editor.dirtyNow}
        onSave={editor.canSave ? () => perform('save') : undefined}
      />
    </div>
  );
}
