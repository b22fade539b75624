import type { Organization } from '@yyp/contracts';
import { Button, Card, Form } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../shared/notify/useNotify';
import { SwitchField } from '../../../ui/SwitchField';
import { notificationsOf } from './notifications';
import { useUpdateOrganization } from './useUpdateOrganization';

interface NotificationValues {
  newExam: boolean;
  criticalValue: boolean;
  consultation: boolean;
}

function toValues(organization: Organization): NotificationValues {
  const { newExam, criticalValue, consultation } = notificationsOf(organization);
  return { newExam, criticalValue, consultation };
}

/** Which events of the organization notify its members. */
export function NotificationsCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<NotificationValues>();
  const notify = useNotify();
  const update = useUpdateOrganization(organization.id);

  useEffect(() => {
    form.setFieldsValue(toValues(organization));
  }, [form, organization]);

  async function handleFinish(values: NotificationValues) {
    try {
      await update.mutateAsync({ notifications: values });
      notify.success(t('org.saved'));
    } catch (error) {
      notify.error(error);
    }
  }

  return (
    <Card variant="borderless" title={t('org.notificationsTitle')}>
      <Form<NotificationValues>
        name="orgNotifications"
        form={form}
        layout="vertical"
        initialValues={toValues(organization)}
        onFinish={handleFinish}
      >
        <div className="yyp-switch-list">
          <SwitchField name="newExam" label={t('org.notifyNewExam')} />
          <SwitchField name="criticalValue" label={t('org.notifyCriticalValue')} />
          <SwitchField name="consultation" label={t('org.notifyConsultation')} />
        </div>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}
