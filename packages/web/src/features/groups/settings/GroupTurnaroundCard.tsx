import { TURNAROUND_TARGET_MINUTES, type Group } from '@yyp/contracts';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { SettingsFormCard, useRecordForm, useSaveWithNotice } from '../../../shared/forms/SettingsFormCard';
import { useUpdateGroup } from '../../../shared/groups/useGroups';

interface TargetValues {
  turnaroundTargetMinutes: number | null;
}

const { min: MIN_MINUTES, max: MAX_MINUTES } = TURNAROUND_TARGET_MINUTES;

function toValues(turnaroundTargetMinutes: number | null): TargetValues {
  return { turnaroundTargetMinutes };
}

/**
 * The group's turnaround target (issue 26): the minutes from registration to approval an exam
 * should take. statistics/turnaround counts the exams over it and lists those waiting past it;
 * empty: no target.
 */
export function GroupTurnaroundCard({ group }: { group: Group }) {
  const { t } = useTranslation();
  const current = group.settings.turnaroundTargetMinutes ?? null;
  const form = useRecordForm(current, toValues);
  const update = useUpdateGroup(group.id);
  const save = useSaveWithNotice(form, t('group.settingsSaved'));

  return (
    <SettingsFormCard<TargetValues>
      title={t('statistics.turnaroundTarget.title')}
      description={t('statistics.turnaroundTarget.hint')}
      name="groupTurnaround"
      form={form}
      layout="vertical"
      initialValues={toValues(current)}
      onFinish={(values) =>
        save(() =>
          update.mutateAsync({ settings: { turnaroundTargetMinutes: values.turnaroundTargetMinutes ?? null } }),
        )
      }
      saving={update.isPending}
    >
      <Form.Item
        name="turnaroundTargetMinutes"
        label={t('statistics.turnaroundTarget.label')}
        rules={[
          {
            type: 'integer',
            min: MIN_MINUTES,
            max: MAX_MINUTES,
            message: t('statistics.turnaroundTarget.invalid', { min: MIN_MINUTES, max: MAX_MINUTES }),
          },
        ]}
      >
        <InputNumber<number>
          min={MIN_MINUTES}
          max={MAX_MINUTES}
          precision={0}
          placeholder={t('statistics.turnaroundTarget.none')}
          style={{ width: 200 }}
        />
      </Form.Item>
    </SettingsFormCard>
  );
}
