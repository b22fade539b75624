import {
  BookOutlined,
  CheckCircleOutlined,
  ClearOutlined,
  EditOutlined,
  EyeOutlined,
  PrinterOutlined,
  SaveOutlined,
  StepForwardOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import { isResettableStatus, type Report, type ReportAction } from '@yyp/contracts';
import { App, Button, Space, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermissions } from '../../shared/permissions/permissions';
import { useNotify } from '../../shared/notify/useNotify';
import { actionButtons, type ActionButton } from './actionButtons';
import { SHORTCUT_LABELS } from './shortcuts';
import type { ReportEditor } from './useReportEditor';

interface ReportActionBarProps {
  report: Report;
  editor: ReportEditor;
  hasImages: boolean;
  openingViewer: boolean;
  hasNext: boolean;
  libraryOpen: boolean;
  onAction: (button: ActionButton) => void;
  onOpenViewer: () => void;
  onNext: () => void;
  onToggleLibrary: () => void;
  /** opens the print view (a report with text, for those who print) */
  onPrint?: (() => void) | undefined;
  /** the share button (the sharing feature's; app/ hands it in through the editor page) */
  shareButton?: ((report: Report) => ReactNode) | undefined;
}

const ICONS: Partial<Record<ReportAction, ReactNode>> = {
  save: <SaveOutlined />,
  approve: <CheckCircleOutlined />,
};

/**
 * The action buttons of a report: its transitions, less any whose action the caller no longer
 * holds in the report's organization (the bar and the keyboard shortcuts both go by these).
 */
export function useActionButtons(report: Report | undefined): ActionButton[] {
  const held = usePermissions();
  if (!report) {
    return [];
  }
  return actionButtons(report.transitions, held.known ? held.actionsIn(report.bucketId) : undefined);
}

/** Exactly the server's transitions as buttons, then the editor's own tools and the save state. */
export function ReportActionBar(props: ReportActionBarProps) {
  const { report, editor } = props;
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notify = useNotify();
  const buttons = useActionButtons(report);
  const tip = (label: string, keys: string | null) =>
    keys ? t('report.toolbar.shortcut', { label, keys }) : undefined;
  // Clearing a draft is an edit of its own: offered while the lock is held, not to a reader.
  const canReset =
    editor.lockPhase === 'held' && editor.writable && isResettableStatus(report.status) && report.submittedAt === null;

  function handleUnlock() {
    modal.confirm({
      title: t('report.toolbar.unlock'),
      content: t('report.toolbar.unlockConfirm'),
      onOk: () => editor.unlock().then(() => notify.success(t('report.toolbar.unlocked')), notify.error),
    });
  }

  function handleReset() {
    modal.confirm({
      title: t('report.toolbar.reset'),
      content: t('report.toolbar.resetConfirm'),
      okButtonProps: { danger: true },
      onOk: () => editor.reset().then(() => notify.success(t('report.toolbar.resetDone')), notify.error),
    });
  }

  return (
    <div className="yyp-report__actions" role="toolbar" aria-label={t('common.actions')}>
      <Space wrap size={8}>
        {buttons.map((button) => {
          const label = t(`report.actions.${button.action}`);
          return (
            <Tooltip key={button.action} title={tip(label, button.shortcut)}>
              <Button
                type={button.primary ? 'primary' : 'default'}
                danger={button.danger}
                icon={ICONS[button.action]}
                loading={editor.pending === button.action}
                disabled={
                  (button.sendsContent && !editor.writable) ||
                  (editor.pending !== null && editor.pending !== button.action)
                }
                onClick={() => props.onAction(button)}
                data-action={button.action}
              >
                {label}
              </Button>
            </Tooltip>
          );
        })}
        {editor.canStartEditing && (
          <Tooltip title={t('report.toolbar.editTip')}>
            <Button
              icon={<EditOutlined />}
              loading={editor.lockPhase === 'taking'}
              onClick={() => void editor.startEditing()}
              data-testid="start-editing"
            >
              {t('report.toolbar.edit')}
            </Button>
          </Tooltip>
        )}
        {props.hasImages && (
          <Tooltip title={t('report.toolbar.imagesTip')}>
            <Button icon={<EyeOutlined />} loading={props.openingViewer} onClick={props.onOpenViewer}>
              {t('report.toolbar.images')}
            </Button>
          </Tooltip>
        )}
        {props.shareButton?.(report)}
        {props.onPrint && (
          <Tooltip title={t('reportPrint.editor.printTip')}>
            <Button icon={<PrinterOutlined />} onClick={props.onPrint} data-testid="print-report">
              {t('reportPrint.editor.print')}
            </Button>
          </Tooltip>
        )}
        {editor.lockPhase === 'held' && (
          <Button icon={<UnlockOutlined />} onClick={handleUnlock} loading={editor.pending === 'unlock'}>
            {t('report.toolbar.unlock')}
          </Button>
        )}
        {canReset && (
          <Button icon={<ClearOutlined />} onClick={handleReset} loading={editor.pending === 'reset'}>
            {t('report.toolbar.reset')}
          </Button>
        )}
        <Tooltip title={t('report.toolbar.libraryTip')}>
          <Button icon={<BookOutlined />} aria-pressed={props.libraryOpen} onClick={props.onToggleLibrary}>
            {t('report.toolbar.library')}
          </Button>
        </Tooltip>
        {props.hasNext && (
          <Tooltip title={tip(t('report.toolbar.next'), SHORTCUT_LABELS.next)}>
            <Button icon={<StepForwardOutlined />} onClick={props.onNext}>
              {t('report.toolbar.next')}
            </Button>
          </Tooltip>
        )}
      </Space>
      <SaveState editor={editor} />
    </div>
  );
}

function SaveState({ editor }: { editor: ReportEditor }) {
  const { t } = useTranslation();
  let text: string | null = null;
  if (editor.saving) {
    text = t('report.save.saving');
  } else if (editor.dirty && editor.writable) {
    text = t('report.save.unsaved');
  } else if (editor.savedAt) {
    text = t('report.save.savedAt', { time: formatClock(editor.savedAt) });
  }
  return (
    <Typography.Text type="secondary" className="yyp-report__save-state" aria-live="polite" data-testid="save-state">
      {text}
    </Typography.Text>
  );
}

/** hh:mm:ss in local time. */
export function formatClock(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
