import { PrinterOutlined } from '@ant-design/icons';
import { PRINT_SHEETS_MAX, type ExamItem } from '@yyp/contracts';
import { Button, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { printSheetsPath, splitPrintable, tooManySheets } from '../../shared/print/printSheets';
import { usePermissions } from '../../shared/permissions/permissions';
import { usePersonName } from '../../ui/usePersonName';

interface PrintReportsBarProps {
  selected: ExamItem[];
  onClear: () => void;
}

/**
 * Printing sheets from the study list (spec 000 §5): the selected exams' approved reports open as
 * one print document. Exams without an approved report, or where the caller does not print, are
 * named and left out; the server refuses exams of different days or organizations and the print
 * page says which are which.
 */
export function PrintReportsBar({ selected, onClear }: PrintReportsBarProps) {
  const { t } = useTranslation();
  const personName = usePersonName();
  const navigate = useNavigate();
  const { can, anywhere } = usePermissions();
  const { printable, notApproved, notAllowed } = splitPrintable(selected, (bucketId) => can(bucketId, 'report_print'));
  const name = (e: ExamItem) => personName(e.patientName) || e.accessionNumber || e.patientId;
  const tooMany = tooManySheets(printable.map((e) => e.id));
  const why =
    selected.length === 0
      ? t('printSheets.selectHint')
      : tooMany
        ? t('printSheets.tooMany', { max: PRINT_SHEETS_MAX })
        : printable.length === 0
          ? notApproved.length > 0
            ? t('printSheets.noneApproved')
            : t('printSheets.notPrintable')
          : t('printSheets.actionTip');

  // A caller who prints nowhere (a technician, a registrar) is not offered printing at all.
  if (!anywhere('report_print')) {
    return null;
  }
  return (
    <Space size={8} wrap className="yyp-studies__print" data-testid="print-reports-bar">
      {selected.length > 0 && (
        <>
          <Typography.Text data-testid="print-reports-selected">
            {t('printSheets.selected', { count: selected.length })}
          </Typography.Text>
          <Button size="small" type="link" onClick={onClear}>
            {t('printSheets.clear')}
          </Button>
        </>
      )}
      {printable.length > 0 && notApproved.length > 0 && (
        <Typography.Text type="warning" data-testid="print-reports-not-approved">
          {t('printSheets.notApproved', { names: notApproved.map(name).join('、') })}
        </Typography.Text>
      )}
      {printable.length > 0 && notAllowed.length > 0 && (
        <Typography.Text type="warning">
          {t('printSheets.notPrintable')} {notAllowed.map(name).join('、')}
        </Typography.Text>
      )}
      <Tooltip title={why}>
        <Button
          icon={<PrinterOutlined />}
          disabled={printable.length === 0 || tooMany}
          onClick={() => void navigate(printSheetsPath(printable.map((e) => e.id)))}
          data-testid="print-reports"
        >
          {t('printSheets.action')}
        </Button>
      </Tooltip>
    </Space>
  );
}
