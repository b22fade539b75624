import { DownOutlined, PrinterOutlined } from '@ant-design/icons';
import { LABEL_LAYOUTS, MAX_LABEL_COPIES, MAX_PRINT_EXAMS, type LabelLayout, type RegistryItem } from '@yyp/contracts';
import { Button, Dropdown, InputNumber, Space, Tooltip, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabelPrefs } from './useLabelPrefs';
import { useRegistryPrint } from './useRegistryPrint';

/** The exams that may print: any but cancelled ones. */
const printable = (row: RegistryItem) => row.status !== 'Cancelled';

/**
 * The batch bar's printing (spec 000 §2 label and referral form printing, §5 same day, §9 80×50 mm):
 * labels of the selected exams on the label printer (or an A4 sheet, or downloaded) and their
 * referral forms, offered only for exams of one day among those on the page.
 */
export function RegistryPrintButtons({ selected, rows }: { selected: string[]; rows: RegistryItem[] }) {
  const { t } = useTranslation();
  const { print, busy } = useRegistryPrint();
  const prefs = useLabelPrefs();
  const [chosenCopies, setCopies] = useState<number | null>(null);
  const copies = chosenCopies ?? prefs.copies;
  const known = rows.filter((r) => selected.includes(r.id));
  const days = new Set(known.map((r) => r.scheduledDate));
  const none = selected.length === 0 || known.some((r) => !printable(r));
  const tooMany = selected.length > MAX_PRINT_EXAMS;
  const layoutName = (layout: LabelLayout) =>
    t(layout === 'sheet' ? 'registryPrint.labelSheet' : 'registryPrint.labelPrinter');
  // Either layout; the one chosen is kept for the main button (and the rows' labels) next time.
  const labelMenu: MenuProps['items'] = [
    ...LABEL_LAYOUTS.map((layout) => ({ key: layout, label: layoutName(layout) })),
    { key: 'download', label: t('registryPrint.download') },
  ];
  const formMenu: MenuProps['items'] = [{ key: 'download', label: t('registryPrint.download') }];
  return (
    <Space wrap>
      <Space.Compact>
        <Tooltip title={tooMany ? t('registryPrint.tooMany', { max: MAX_PRINT_EXAMS }) : layoutName(prefs.layout)}>
          <Button
            icon={<PrinterOutlined />}
            disabled={none || tooMany || busy}
            onClick={() => void print('labels', selected, { layout: prefs.layout, copies })}
          >
            {t('registryPrint.labels', { count: selected.length })}
          </Button>
        </Tooltip>
        <Dropdown
          disabled={none || tooMany || busy}
          trigger={['click']}
          menu={{
            items: labelMenu,
            onClick: ({ key }) => {
              if (key === 'download') {
                void print('labels', selected, { mode: 'download', layout: prefs.layout, copies });
                return;
              }
              const layout = key as LabelLayout;
              if (layout !== prefs.layout) prefs.remember({ layout });
              void print('labels', selected, { layout, copies });
            },
          }}
        >
          <Button
            icon={<DownOutlined />}
            aria-label={t('registryPrint.labelMore')}
            disabled={none || tooMany || busy}
          />
        </Dropdown>
      </Space.Compact>
      <InputNumber
        aria-label={t('registryPrint.copies')}
        title={t('registryPrint.copies')}
        min={1}
        max={MAX_LABEL_COPIES}
        precision={0}
        value={copies}
        onChange={(value) => {
          setCopies(value ?? 1);
          if (value) prefs.remember({ copies: value });
        }}
        suffix={t('registryPrint.copiesUnit')}
      />
      <Space.Compact>
        <Tooltip title={days.size > 1 ? t('registryPrint.notSameDay') : undefined}>
          <Button
            icon={<PrinterOutlined />}
            disabled={none || tooMany || days.size > 1 || busy}
            onClick={() => void print('referralForms', selected)}
          >
            {t('registryPrint.referralForms', { count: selected.length })}
          </Button>
        </Tooltip>
        <Dropdown
          disabled={none || tooMany || days.size > 1 || busy}
          trigger={['click']}
          menu={{ items: formMenu, onClick: () => void print('referralForms', selected, { mode: 'download' }) }}
        >
          <Button
            icon={<DownOutlined />}
            aria-label={t('registryPrint.formMore')}
            disabled={none || tooMany || days.size > 1 || busy}
          />
        </Dropdown>
      </Space.Compact>
    </Space>
  );
}

/** A row's own label and referral form, opened for printing. */
export function RegistryRowPrint({ row }: { row: RegistryItem }) {
  const { t } = useTranslation();
  const { print, busy } = useRegistryPrint();
  const prefs = useLabelPrefs();
  if (!printable(row)) return null;
  return (
    <>
      <Button
        type="link"
        size="small"
        disabled={busy}
        onClick={() => void print('labels', [row.id], { layout: prefs.layout, copies: prefs.copies })}
      >
        {t('registryPrint.label')}
      </Button>
      <Button type="link" size="small" disabled={busy} onClick={() => void print('referralForms', [row.id])}>
        {t('registryPrint.referralForm')}
      </Button>
    </>
  );
}
