import { Button, Drawer, Space } from 'antd';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The add / edit drawer of a form: Cancel and Save in its footer (none when read-only), its content
 * mounted only while open. The footer's submit button sits outside the form and names it by id
 * (antd: id = name), the id `children` is given.
 */
export function FormDrawer({
  open,
  size,
  title,
  name,
  readOnly = false,
  onClose,
  children,
}: {
  open: boolean;
  size: number;
  title: ReactNode;
  /** the form id's prefix */
  name: string;
  readOnly?: boolean;
  onClose: () => void;
  children: (formId: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const formId = `${name}${useId().replace(/\W/g, '')}`;
  return (
    <Drawer
      open={open}
      size={size}
      title={title}
      onClose={onClose}
      destroyOnHidden
      footer={
        !readOnly && (
          <Space className="yyp-drawer-footer">
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="primary" htmlType="submit" form={formId}>
              {t('common.save')}
            </Button>
          </Space>
        )
      }
    >
      {open && children(formId)}
    </Drawer>
  );
}
