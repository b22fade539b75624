import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NOTIFICATION_KINDS, type MyNotificationSettings, type NotificationKind } from '@yyp/contracts';
import { Button, Card, Checkbox, Form, Space, Spin, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchMyNotificationSettings, saveMyNotificationSettings } from '../../api/notificationSettings';
import { playNotificationChime } from '../../shared/notify/chime';
import { useNotify } from '../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { PageHeading } from '../../ui/PageHeading';

const SETTINGS_KEY = ['accounts', 'me', 'notification-settings'] as const;

interface Values {
  /** the kinds that pop up: every kind not muted */
  toast: NotificationKind[];
  sound: boolean;
}

/**
 * /settings/notifications (spec 000 §2 "Personal settings: … notifications"): which notifications
 * pop up as toasts and whether they chime. Stored on the server per account; a muted kind is still
 * listed in the bell.
 */
export function NotificationSettingsPage() {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: ({ signal }) => fetchMyNotificationSettings(signal) });
  const save = useMutation({
    mutationFn: saveMyNotificationSettings,
    onSuccess: (stored) => {
      queryClient.setQueryData(SETTINGS_KEY, stored);
      // The bell's list carries which kinds are quiet and the sound: ask it again.
      void queryClient.invalidateQueries({ queryKey: ['notifications'] });
    },
  });

  useEffect(() => {
    if (settings.data) {
      form.setFieldsValue(toValues(settings.data));
    }
  }, [form, settings.data]);

  async function handleFinish(values: Values) {
    try {
      await save.mutateAsync({
        mutedKinds: NOTIFICATION_KINDS.filter((kind) => !values.toast.includes(kind)),
        sound: values.sound,
      });
      notify.success(t('myNotifications.saved'));
    } catch (error) {
      notify.error(error);
    }
  }

  return (
    <div className="yyp-page">
      <PageHeading title={t('myNotifications.title')} description={t('myNotifications.description')} />
      {settings.error ? (
        <LoadFailedAlert error={settings.error} onRetry={() => void settings.refetch()} />
      ) : settings.isPending ? (
        <Spin />
      ) : (
        <Card variant="borderless">
          <Form<Values> form={form} layout="vertical" initialValues={toValues(settings.data)} onFinish={handleFinish}>
            <Form.Item name="toast" label={t('myNotifications.kinds')}>
              <Checkbox.Group>
                <Space orientation="vertical">
                  {NOTIFICATION_KINDS.map((kind) => (
                    <Checkbox key={kind} value={kind}>
                      {t(`myNotifications.kind.${kind}`)}
                    </Checkbox>
                  ))}
                </Space>
              </Checkbox.Group>
            </Form.Item>
            <Form.Item
              name="sound"
              label={t('myNotifications.sound')}
              valuePropName="checked"
              extra={t('myNotifications.soundHint')}
            >
              <Switch />
            </Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {t('common.save')}
              </Button>
              <Button onClick={playNotificationChime}>{t('myNotifications.test')}</Button>
            </Space>
          </Form>
        </Card>
      )}
    </div>
  );
}

function toValues(settings: MyNotificationSettings): Values {
  return { toast: NOTIFICATION_KINDS.filter((kind) => !settings.mutedKinds.includes(kind)), sound: settings.sound };
}
