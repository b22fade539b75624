import type { UpdateMeRequest, User } from '@yyp/contracts';
import { Button, Card, Form, Input, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useNotify } from '../../shared/notify/useNotify';
import { useUpdateMe } from '../../shared/account/useMe';
import { maxLengthRule } from '../../shared/forms/formRules';
import { AvatarField } from './AvatarField';
import { NameField } from '../../shared/forms/AccountFields';

interface ProfileValues {
  username: string;
  name: string;
  licenseIssuer: string;
  professionalTitle: string;
}

function toValues(user: User): ProfileValues {
  return {
    username: user.username,
    name: user.name,
    licenseIssuer: user.licenseIssuer ?? '',
    professionalTitle: user.professionalTitle ?? '',
  };
}

function emptyToNull(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/**
 * Picture, name and professional details (PATCH accounts/me); the username cannot change, the
 * mobile number is shown with a link to its own page (bound by SMS code).
 */
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
        {/* A number is bound with its SMS code on /settings/mobile: resets of the password go to it. */}
        <Form.Item label={t('fields.mobile')}>
          <Space size="middle" wrap>
            <Typography.Text type={user.mobile ? undefined : 'secondary'}>
              {user.mobile ?? t('mobile.none')}
            </Typography.Text>
            <Link to="/settings/mobile">{user.mobile ? t('mobile.change') : t('mobile.bind')}</Link>
          </Space>
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
