import { DOB_MATCH_MODES, GROUP_FLAGS, type Group, type GroupFlag } from '@yyp/contracts';
import { Divider, Form, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { SettingsFormCard, useRecordForm, useSaveWithNotice } from '../../../shared/forms/SettingsFormCard';
import { SwitchField } from '../../../ui/SwitchField';
import type { DobMatchMode } from '../groupSettings';
import { useUpdateGroup } from '../../../shared/groups/useGroups';

type FeatureValues = Record<GroupFlag, boolean> & {
  dobMatchMode: DobMatchMode;
  crossOrgHistorySearch: boolean;
};

function toValues(group: Group): FeatureValues {
  const flags = Object.fromEntries(GROUP_FLAGS.map((flag) => [flag, group.settings[flag] === true])) as Record<
    GroupFlag,
    boolean
  >;
  return {
    ...flags,
    dobMatchMode: group.settings.dobMatchMode ?? 'disabled',
    crossOrgHistorySearch: group.settings.crossOrgHistorySearch === true,
  };
}

/** The group's feature flags (contracts GROUP_FLAGS), date-of-birth matching and cross-organization history. */
export function GroupFeaturesCard({ group }: { group: Group }) {
  const { t } = useTranslation();
  const form = useRecordForm(group, toValues);
  const update = useUpdateGroup(group.id);
  const save = useSaveWithNotice(form, t('group.settingsSaved'));

  return (
    <SettingsFormCard<FeatureValues>
      title={t('group.featuresTitle')}
      description={t('group.featuresDescription')}
      name="groupFeatures"
      form={form}
      layout="horizontal"
      initialValues={toValues(group)}
      onFinish={(values) => save(() => update.mutateAsync({ settings: values }))}
      saving={update.isPending}
    >
      <div className="yyp-switch-grid">
        {GROUP_FLAGS.map((flag) => (
          <Form.Item
            key={flag}
            name={flag}
            valuePropName="checked"
            className="yyp-switch-row"
            label={t(`groupFlags.${flag}`)}
            colon={false}
          >
            <Switch size="small" />
          </Form.Item>
        ))}
      </div>
      <Divider />
      <div className="yyp-form-grid">
        <Form.Item
          name="dobMatchMode"
          label={t('group.dobMatchMode')}
          extra={t('group.dobMatchHint')}
          layout="vertical"
        >
          <Select options={DOB_MATCH_MODES.map((mode) => ({ value: mode, label: t(`dobMatchModes.${mode}`) }))} />
        </Form.Item>
        <div className="yyp-switch-list yyp-switch-list--inline">
          <SwitchField
            name="crossOrgHistorySearch"
            label={t('group.crossOrgHistory')}
            hint={t('group.crossOrgHistoryHint')}
          />
        </div>
      </div>
    </SettingsFormCard>
  );
}
