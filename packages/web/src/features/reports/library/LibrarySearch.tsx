import { Input } from 'antd';
import { useTranslation } from 'react-i18next';

/** The search box at the top of each library tab (phrases, templates, image descriptions). */
export function LibrarySearch({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <Input.Search
      size="small"
      allowClear
      placeholder={t('report.library.search')}
      aria-label={t('report.library.search')}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
