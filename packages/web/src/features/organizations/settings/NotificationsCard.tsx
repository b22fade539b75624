import type { Organization } from '@yyp/contracts';
import { useTranslation } from 'react-i18next';
import { SettingsFormCard, useRecordForm, useSaveWithNotice } from '../../../shared/forms/SettingsFormCard';
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
  const form = useRecordForm(organization, toValues);
  const update = useUpdateOrganization(organization.id);
  const save = useSaveWithNotice(form, t('org.saved'));

  return (
    <SettingsFormCard<NotificationValues>
      title={t('org.notificationsTitle')}
      name="orgNotifications"
      form={form}
      layout="vertical"
      initialValues={toValues(organization)}
      onFinish={(values) => save(() => update.mutateAsync({ notifications: values }))}
      saving={update.isPending}
    >
      <div className="yyp-switch-list">
        <SwitchField name="newExam" label={t('org.notifyNewExam')} />
        <SwitchField name="criticalValue" label={t('org.notifyCriticalValue')} />
        <SwitchField name="consultation" label={t('org.notifyConsultation')} />
      </div>
    </SettingsFormCard>
  );
}
