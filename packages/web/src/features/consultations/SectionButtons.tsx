import { EditOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/** A section's Edit button (its card's extra), shown where the caller may change the section. */
export function EditButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button size="small" icon={<EditOutlined />} onClick={onClick}>
      {t('consultations.detail.edit')}
    </Button>
  );
}

/** Cancel and Save (submit) under a section's edit form. */
export function SaveButtons({ onCancel, pending }: { onCancel: () => void; pending: boolean }) {
  const { t } = useTranslation();
  return (
    <Space>
      <Button onClick={onCancel}>{t('common.cancel')}</Button>
      <Button type="primary" htmlType="submit" loading={pending}>
        {t('common.save')}
      </Button>
    </Space>
  );
}
