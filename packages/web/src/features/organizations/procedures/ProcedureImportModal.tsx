import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import {
  PROCEDURE_IMPORT_COLUMNS,
  PROCEDURE_IMPORT_MAX_BYTES,
  PROCEDURE_IMPORT_MAX_ROWS,
  procedureImportErrorDetailsSchema,
  type ProcedureImportResult,
  type ProcedureImportRowError,
} from '@yyp/contracts';
import { Alert, Button, Modal, Table, Typography, Upload, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/errorMessage';
import { isApiError } from '../../../api/errors';
import { importProcedures } from '../../../api/procedures';
import { currentLanguage } from '../../../i18n';
import { formatBytes } from '../../../ui/formatBytes';
import { saveBlob } from '../../../ui/saveBlob';
import { xlsxBlob } from './xlsxSheet';

interface ProcedureImportModalProps {
  bucketId: string;
  open: boolean;
  onClose: () => void;
  onImported: () => unknown;
}

type Outcome =
  | { kind: 'done'; name: string; result: ProcedureImportResult }
  | { kind: 'refused'; name: string; rows: ProcedureImportRowError[] }
  | { kind: 'failed'; name: string; error: unknown };

/**
 * The header row of the template, in the language the server reads (chs or en; a Tibetan user gets
 * the chs headers, which the server reads too).
 */
export function templateHeaders(language: string): string[] {
  return PROCEDURE_IMPORT_COLUMNS.map((c) => (language === 'en' ? c.en : c.chs));
}

/** A column of the sheet (a procedure field) by its label in the interface language. */
function columnLabel(t: TFunction, column: string): string {
  const known = PROCEDURE_IMPORT_COLUMNS.some((c) => c.field === column);
  return known ? t(`procedures.fields.${column}` as 'procedures.fields.name') : column;
}

/**
 * The Excel import: download the template, drop a filled .xlsx. A refused sheet (any bad row)
 * imports nothing; its row-level errors are listed so they can be corrected in the file.
 */
export function ProcedureImportModal({ bucketId, open, onClose, onImported }: ProcedureImportModalProps) {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [pending, setPending] = useState('');
  const upload = useMutation({ mutationFn: (file: File) => importProcedures(bucketId, file) });
  const maxSize = formatBytes(PROCEDURE_IMPORT_MAX_BYTES);

  function handleClose() {
    setOutcome(null);
    onClose();
  }

  function handleTemplate() {
    const language = currentLanguage();
    const blob = xlsxBlob(t('procedures.sections.procedures'), [templateHeaders(language)]);
    saveBlob(blob, `${t('procedures.sections.procedures')}.xlsx`);
  }

  async function handleFile(file: File) {
    if (file.size > PROCEDURE_IMPORT_MAX_BYTES) {
      setOutcome({
        kind: 'failed',
        name: file.name,
        error: new Error(t('procedures.import.tooLarge', { size: maxSize })),
      });
      return;
    }
    setOutcome(null);
    setPending(file.name);
    try {
      const result = await upload.mutateAsync(file);
      setOutcome({ kind: 'done', name: file.name, result });
      await onImported();
    } catch (error) {
      const details = isApiError(error) ? procedureImportErrorDetailsSchema.safeParse(error.details) : null;
      setOutcome(
        details?.success
          ? { kind: 'refused', name: file.name, rows: details.data.rows }
          : { kind: 'failed', name: file.name, error },
      );
    }
  }

  const columns: TableColumnsType<ProcedureImportRowError> = [
    { key: 'row', dataIndex: 'row', title: t('procedures.import.row'), width: 70, align: 'right' },
    { key: 'column', title: t('procedures.import.column'), width: 160, render: (_, e) => columnLabel(t, e.column) },
    {
      key: 'problem',
      title: t('procedures.import.problem'),
      // The server's problem code in the user's language (its message is English).
      render: (_, e) => t(`procedures.import.problems.${e.problem}`, { value: e.value ?? '' }),
    },
  ];

  return (
    <Modal
      open={open}
      title={t('procedures.import.title')}
      onCancel={handleClose}
      footer={null}
      width={720}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('procedures.import.intro')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('procedures.import.rules')}</Typography.Paragraph>
      <div className="yyp-procedures__template">
        <Button icon={<DownloadOutlined />} onClick={handleTemplate}>
          {t('procedures.import.template')}
        </Button>
        <Typography.Text type="secondary">{t('procedures.import.templateHint')}</Typography.Text>
      </div>
      <Upload.Dragger
        // the picker and drops take .xlsx files only (antd filters by accept)
        accept=".xlsx"
        multiple={false}
        showUploadList={false}
        disabled={upload.isPending}
        beforeUpload={(file) => {
          void handleFile(file);
          return Upload.LIST_IGNORE;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('procedures.import.drop')}</p>
        <p className="ant-upload-hint">
          {t('procedures.import.limits', { rows: PROCEDURE_IMPORT_MAX_ROWS, size: maxSize })}
        </p>
      </Upload.Dragger>
      <div className="yyp-procedures__outcome" aria-live="polite">
        {upload.isPending && <Alert type="info" showIcon title={t('procedures.import.importing', { name: pending })} />}
        {outcome?.kind === 'done' && (
          <Alert
            type="success"
            showIcon
            title={t('procedures.import.done', {
              name: outcome.name,
              created: outcome.result.created,
              updated: outcome.result.updated,
            })}
          />
        )}
        {outcome?.kind === 'failed' && (
          <Alert
            type="error"
            showIcon
            title={isApiError(outcome.error) ? errorMessage(t, outcome.error) : (outcome.error as Error).message}
            description={isApiError(outcome.error) ? outcome.error.message : undefined}
          />
        )}
        {outcome?.kind === 'refused' && (
          <>
            <Alert
              type="error"
              showIcon
              title={t('procedures.import.refused', { name: outcome.name, count: outcome.rows.length })}
            />
            <Table<ProcedureImportRowError>
              size="small"
              rowKey={(e) => `${e.row}:${e.column}`}
              columns={columns}
              dataSource={outcome.rows}
              pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
              aria-label={t('procedures.import.problem')}
            />
          </>
        )}
      </div>
    </Modal>
  );
}
