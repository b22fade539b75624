import { SoundOutlined } from '@ant-design/icons';
import {
  announcementText,
  DEFAULT_CALLING_SETTINGS,
  MAX_ANNOUNCEMENT_LENGTH,
  unknownPlaceholders,
  type CallingSettings,
} from '@yyp/contracts';
import { Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRecordForm, useSaveWithNotice } from '../../shared/forms/SettingsFormCard';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { SwitchField } from '../../ui/SwitchField';
import { useDeskAnnouncer } from './useAnnouncer';
import { useCallingSettings, useSaveCallingSettings } from './useCallQueueSettings';

/** The sample call of the preview: a masked name unless full names are spoken. */
export function previewText(values: Partial<CallingSettings>): string {
  const template = values.announcementTemplate || DEFAULT_CALLING_SETTINGS.announcementTemplate;
  return announcementText(template, { queueNo: 3, name: values.speakFullName ? '王晓东' : '王*东', room: 'CT 1' });
}

const toValues = (settings: CallingSettings | undefined) => settings ?? DEFAULT_CALLING_SETTINGS;

/** The announcement template with a spoken preview, and whether whole names are spoken. */
export function AnnouncementPanel({ bucketId }: { bucketId: string }) {
  const { t } = useTranslation();
  const settings = useCallingSettings(bucketId);
  const save = useSaveCallingSettings(bucketId);
  const form = useRecordForm(settings.data, toValues);
  const saveWithNotice = useSaveWithNotice(form, t('callQueues.announcement.saved'));
  const values = Form.useWatch([], form) as Partial<CallingSettings> | undefined;
  const announcer = useDeskAnnouncer();
  const sample = previewText(values ?? toValues(settings.data));

  if (settings.isError) return <LoadFailedAlert error={settings.error} onRetry={() => void settings.refetch()} />;
  return (
    <section>
      <Typography.Title level={5}>{t('callQueues.announcement.title')}</Typography.Title>
      <Form<CallingSettings>
        name="callingSettings"
        form={form}
        layout="vertical"
        initialValues={toValues(settings.data)}
        onFinish={(next) => saveWithNotice(() => save.mutateAsync(next))}
      >
        <Form.Item
          name="announcementTemplate"
          label={t('callQueues.announcement.template')}
          extra={t('callQueues.announcement.templateHint')}
          rules={[
            { required: true, max: MAX_ANNOUNCEMENT_LENGTH },
            {
              validator: (_, text: string) =>
                unknownPlaceholders(text ?? '').length === 0
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('callQueues.announcement.templateHint'))),
            },
          ]}
        >
          <Input maxLength={MAX_ANNOUNCEMENT_LENGTH} />
        </Form.Item>
        <SwitchField
          name="speakFullName"
          label={t('callQueues.announcement.speakFullName')}
          hint={t('callQueues.announcement.speakFullNameHint')}
        />
        <div className="yyp-callqueues__preview">
          <Typography.Text type="secondary">
            {t('callQueues.announcement.previewSample', { text: sample })}
          </Typography.Text>
          <Button size="small" icon={<SoundOutlined />} onClick={() => announcer.say(sample)}>
            {t('callQueues.announcement.preview')}
          </Button>
        </div>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </section>
  );
}
