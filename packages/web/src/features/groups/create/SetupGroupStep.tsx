import { useMutation } from '@tanstack/react-query';
import type { Group } from '@yyp/contracts';
import { Alert, Button, Form, Input } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/errorMessage';
import { hasCode } from '../../../api/errors';
import { createGroup } from '../../../api/groups';
import { useNotify } from '../../../shared/notify/useNotify';
import { GROUP_NAME_MAX, isGroupNameLength, useNameAvailability, type NameAvailability } from './useNameAvailability';

interface SetupValues {
  displayName: string;
}

interface SetupGroupStepProps {
  onBack: () => void;
  onCreated: (group: Group) => void;
}

function availabilityFeedback(t: TFunction, status: NameAvailability) {
  switch (status) {
    case 'checking':
      return { validateStatus: 'validating' as const, help: t('groupCreate.checking') };
    case 'available':
      return { validateStatus: 'success' as const, help: t('groupCreate.available') };
    case 'taken':
      return { validateStatus: 'error' as const, help: t('errors.NameNotAvailable') };
    default:
      return {};
  }
}

/** Step 2 of the wizard: the group's name, checked while typed, then POST groups. */
export function SetupGroupStep({ onBack, onCreated }: SetupGroupStepProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SetupValues>();
  const notify = useNotify();
  const name = Form.useWatch('displayName', form) ?? '';
  const checked = useNameAvailability(name);
  const [blocker, setBlocker] = useState<unknown>(null);
  // A name the server refused on creation stays refused, whatever an earlier check said.
  const [refused, setRefused] = useState<string | null>(null);
  const availability: NameAvailability = refused !== null && refused === name.trim() ? 'taken' : checked;
  const create = useMutation({ mutationFn: (displayName: string) => createGroup(displayName) });
  // Rule errors (required, length) come from the form; availability speaks once the length is right.
  const feedback = isGroupNameLength(name) ? availabilityFeedback(t, availability) : {};

  async function handleFinish(values: SetupValues) {
    if (availability === 'taken') {
      return;
    }
    setBlocker(null);
    try {
      const group = await create.mutateAsync(values.displayName.trim());
      notify.success(t('groupCreate.created', { name: group.displayName }));
      onCreated(group);
    } catch (error) {
      if (hasCode(error, 'NameNotAvailable')) {
        setRefused(values.displayName.trim());
        return;
      }
      if (hasCode(error, 'AlreadyInGroup') || hasCode(error, 'InsufficientPermissions')) {
        setBlocker(error);
        return;
      }
      notify.error(error);
    }
  }

  return (
    <Form<SetupValues>
      name="setupGroup"
      form={form}
      layout="vertical"
      onFinish={handleFinish}
      className="yyp-wizard-step yyp-form-narrow"
    >
      {blocker !== null && <Alert type="error" showIcon title={errorMessage(t, blocker)} />}
      <Form.Item
        name="displayName"
        label={t('groupCreate.groupName')}
        extra={t('groupCreate.groupNameHint')}
        // Always on: toggling it re-mounts the input and would drop the focus while typing.
        hasFeedback
        {...feedback}
        rules={[
          { required: true, whitespace: true, message: t('common.required', { field: t('groupCreate.groupName') }) },
          {
            validator: async (_rule, value: unknown) => {
              if (typeof value === 'string' && value.trim() !== '' && !isGroupNameLength(value)) {
                throw new Error(t('groupCreate.nameLength'));
              }
            },
          },
        ]}
      >
        <Input placeholder={t('groupCreate.groupNamePlaceholder')} maxLength={GROUP_NAME_MAX + 8} autoFocus />
      </Form.Item>
      <div className="yyp-wizard-actions">
        <Button onClick={onBack}>{t('common.back')}</Button>
        <Button
          type="primary"
          htmlType="submit"
          loading={create.isPending}
          disabled={availability === 'taken' || availability === 'checking'}
        >
          {t('groupCreate.create')}
        </Button>
      </div>
    </Form>
  );
}
