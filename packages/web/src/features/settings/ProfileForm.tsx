import type { UpdateMeRequest, User } from '@yyp/contracts';
import { Button, Card, Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../shared/notify/useNotify';
import { useUpdateMe } from '../../shared/account/useMe';
import { maxLengthRule } from '../../shared/forms/formRules';
import { AvatarField } from './AvatarField';
import { NameField } from '../../shared/forms/AccountFields';

interface ProfileValues {
  username: string;
  name: string;
  mobile: string;
  licenseIssuer: string;
  professionalTitle: string;
}

const MOBILE_PATTERN = /^\+?[0-9]{6,20}$/;

function toValues(user: User): ProfileValues {
  return {
    username: user.username,
    name: user.name,
    mobile: user.mobile ?? '',
    licenseIssuer: user.licenseIssuer ?? '',
    professionalTitle: user.professionalTitle ?? '',
  };
}

function emptyToNull(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** Picture, name and professional details (PATCH accounts/me); the username cannot change. */
export function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ProfileValues>();
  const notify = useNotify();
  const updateMe = useUpdateMe();

  useEffect(() => {
    form.setFieldsValue(toValues(user));
  }, [form, user]);

  async function handleFinish(values: ProfileValues) {
    const body: UpdateMeRequest = {
      name: values.name.trim(),
      mobile: emptyToNull(values.mobile),
      licenseIssuer: emptyToNull(values.licenseIssuer),
      professionalTitle: emptyToNull(values.professionalTitle),
    };
    try {
      await updateMe.mutateAsync(body);
      notify.success(t('settings.saved'));
    } catch (error) {
      notify.error(error);
    }
  }

  return (
    <Card title={t('settings.basicInfo')} variant="borderless">
      <AvatarField user={user} />
      <Form<ProfileValues>
        form={form}
        layout="vertical"
        initialValues={toValues(user)}
        onFinish={handleFinish}
        className="yyp-form-narrow"
      >
        <Form.Item name="username" label={t('fields.username')}>
          <Input disabled />
        </Form.Item>
        <NameField />
        <Form.Item
          name="mobile"
          label={t('fields.mobile')}
          rules={[{ pattern: MOBILE_PATTERN, message: t('validation.invalidMobile') }]}
        >
          <Input autoComplete="tel" inputMode="tel" />
        </Form.Item>
        <Form.Item name="licenseIssuer" label={t('fields.licenseIssuer')} rules={[maxLengthRule(t, 128)]}>
          <Input />
        </Form.Item>
        <Form.Item name="professionalTitle" label={t('fields.professionalTitle')} rules={[maxLengthRule(t, 64)]}>
          <Input />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={updateMe.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}
