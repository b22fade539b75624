import { ArrowLeftOutlined, PrinterOutlined } from '@ant-design/icons';
import type { PrintView } from '@yyp/contracts';
import { Alert, Button, Result, Skeleton, Space } from 'antd';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { hasCode } from '../../../api/errors';
import { errorMessage } from '../../../api/errorMessage';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { whenImagesLoaded } from './printing';
import { PrintSheet } from './PrintSheet';
import './print.css';

interface PrintDocumentProps {
  view: PrintView | undefined;
  error: unknown;
  onRetry: () => void;
  backLabel: string;
  onBack: () => void;
  /** after the browser's print dialog: record the print */
  onPrinted: () => void;
  recording: boolean;
  /** print once as soon as the view arrives; `record` whether that print is recorded */
  auto?: { record: boolean } | null;
  /** more toolbar buttons, after Print */
  actions?: ReactNode;
  /** nothing to print, and why: shown in place of the sheets */
  refusal?: ReactNode;
  /** shows a refusal for a load error in place of the sheets; answers null to leave the error to the defaults */
  renderError?: (error: unknown) => ReactNode | null;
}

/**
 * A print document (spec 000 §3 print templates, §5 printing sheets): the sheets of one or several
 * reports as the organization's template lays them out, each on its own page, with a toolbar
 * hidden on paper. Print waits for the pictures, opens the browser's print, then records the print.
 */
export function PrintDocument(props: PrintDocumentProps) {
  const { t } = useTranslation();
  const { view, error } = props;
  const sheets = useRef<HTMLDivElement>(null);
  const autoDone = useRef(false);

  async function handlePrint(record = true) {
    if (sheets.current) {
      await whenImagesLoaded(sheets.current);
    }
    window.print();
    if (record) {
      props.onPrinted();
    }
  }

  // An automatic print happens once, when the view first arrives (a ref, so a refetch does not print again).
  const printOnce = useRef(handlePrint);
  printOnce.current = handlePrint;
  const auto = props.auto ?? null;
  useEffect(() => {
    if (auto && view && !autoDone.current) {
      autoDone.current = true;
      void printOnce.current(auto.record);
    }
  }, [auto, view]);

  const toolbar = (
    <div className="yyp-print__toolbar">
      <Space wrap>
        <Button icon={<ArrowLeftOutlined />} onClick={props.onBack}>
          {props.backLabel}
        </Button>
        {view && (
          <Button
            type="primary"
            icon={<PrinterOutlined />}
            loading={props.recording}
            onClick={() => void handlePrint()}
            data-testid="print-button"
          >
            {t('reportPrint.page.print')}
          </Button>
        )}
        {props.actions}
      </Space>
    </div>
  );

  const refusal = props.refusal ?? (error ? (props.renderError?.(error) ?? null) : null);
  if (refusal || error) {
    return (
      <div className="yyp-print">
        {toolbar}
        {refusal ??
          (hasCode(error, 'NoPrintTemplate') ? (
            <Result
              status="warning"
              title={errorMessage(t, error)}
              subTitle={t('reportPrint.page.noTemplate')}
              data-testid="no-print-template"
            />
          ) : (
            <LoadFailedAlert error={error} onRetry={props.onRetry} />
          ))}
      </div>
    );
  }
  return (
    <div className="yyp-print">
      {toolbar}
      {view?.masked && (
        <Alert className="yyp-print__notice" type="info" showIcon title={t('reportPrint.page.masked')} />
      )}
      <div ref={sheets}>{view ? <PrintSheet view={view} /> : <Skeleton active paragraph={{ rows: 14 }} />}</div>
    </div>
  );
}
