import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Popover } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALL_COLUMNS, type ColumnKey } from './ExamTable';

/** Which columns the table shows, in the table's order; stored per user (preferences.studyColumns). */
export function ColumnChooser({ value, onChange }: { value: ColumnKey[]; onChange: (columns: ColumnKey[]) => void }) {
  const { t } = useTranslation();
  const content = (
    <Checkbox.Group
      className="yyp-column-chooser"
      value={value}
      options={ALL_COLUMNS.map((c) => ({ value: c, label: t(`studyList.col.${c}`), disabled: c === 'patient' }))}
      onChange={(checked) => onChange(ALL_COLUMNS.filter((c) => (checked as string[]).includes(c)))}
    />
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight">
      <Button size="small" icon={<SettingOutlined />}>
        {t('studyList.columns')}
      </Button>
    </Popover>
  );
}
