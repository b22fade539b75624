import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SsoProvider, SsoProviderInput } from '@yyp/contracts';
import { Button, Form, Input, Popconfirm, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchGroupSso, removeGroupSso, saveGroupSso } from '../../../api/sso';
import { SettingsFormCard, useRecordForm, useSaveWithNotice } from '../../../shared/forms/SettingsFormCard';
import { useNotify } from '../../../shared/notify/useNotify';

type Values = Omit<SsoProviderInput, 'clientSecret'> & { clientSecret?: string };

const DEFAULTS: Values = {
  label: '',
  issuer: '',
  clientId: '',
  clientSecret: '',
  scopes: 'openid profile',
  usernameClaim: 'preferred_username',
  nameClaim: 'name',
  mobileClaim: '',
  allowCreate: false,
  enabled: true,
};

function toValues(provider: SsoProvider | null): Values {
  if (!provider) return DEFAULTS;
  const { label, issuer, clientId, scopes, usernameClaim, nameClaim, mobileClaim, allowCreate, enabled } = provider;
  return {
    label,
    issuer,
    clientId,
    clientSecret: '',
    scopes,
    usernameClaim,
    nameClaim,
    mobileClaim,
    allowCreate,
    enabled,
  };
}

const ISSUER = /^(https:\/\/|http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$))[^\s?#]*$/;

/**
 * The group's OpenID Connect provider (issue 27; docs/sso.md), for the group's admins: issuer,
 * client, scopes and claim mapping. The client secret is write-only (never answered); empty keeps it.
 */
export function GroupSsoCard({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const key = ['groups', groupId, 'sso'];
  const stored = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchGroupSso(groupId, signal) });
  const provider = stored.data?.provider ?? null;
  const form = useRecordForm(provider, toValues);
  const save = useSaveWithNotice(form, t('sso.card.saved'));
  const update = useMutation({
    mutationFn: (body: SsoProviderInput) => saveGroupSso(groupId, body),
    onSuccess: (answer) => queryClient.setQueryData(key, answer),
  });
  const remove = useMutation({
    mutationFn: () => removeGroupSso(groupId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: key }),
  });

  function handleFinish(values: Values) {
    const { clientSecret, ...rest } = values;
    const body: SsoProviderInput = { ...rest, ...(clientSecret ? { clientSecret } : {}) };
    return save(() => update.mutateAsync(body));
  }

  const required = (field: string) => ({ required: true, whitespace: true, message: t('common.required', { field }) });

  return (
    <SettingsFormCard<Values>
      title={t('sso.card.title')}
      description={
        <>
          {t('sso.card.description')}
          <br />
          {t('sso.card.redirectUri')}:{' '}
          <Typography.Text code copyable>
            {stored.data?.redirectUri ?? ''}
          </Typography.Text>
          {!provider && stored.isSuccess && (
            <>
              <br />
              {t('sso.card.notConfigured')}
            </>
          )}
        </>
      }
      name="groupSso"
      form={form}
      layout="vertical"
      initialValues={toValues(provider)}
      onFinish={handleFinish}
      saving={update.isPending}
    >
      <Form.Item
        name="label"
        label={t('sso.card.label')}
        extra={t('sso.card.labelHint')}
        rules={[required(t('sso.card.label'))]}
      >
        <Input maxLength={40} />
      </Form.Item>
      <Form.Item
        name="issuer"
        label={t('sso.card.issuer')}
        extra={t('sso.card.issuerHint')}
        rules={[required(t('sso.card.issuer')), { pattern: ISSUER, message: t('sso.card.issuerHint') }]}
      >
        <Input maxLength={512} inputMode="url" placeholder="https://idp.hospital.example/realms/staff" />
      </Form.Item>
      <Form.Item name="clientId" label={t('sso.card.clientId')} rules={[required(t('sso.card.clientId'))]}>
        <Input maxLength={256} autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="clientSecret"
        label={t('sso.card.clientSecret')}
        extra={
          provider
            ? `${t('sso.card.clientSecretSet')} ${t('sso.card.clientSecretHint')}`
            : t('sso.card.clientSecretHint')
        }
        rules={provider ? [] : [required(t('sso.card.clientSecret'))]}
      >
        <Input.Password maxLength={512} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="scopes"
        label={t('sso.card.scopes')}
        extra={t('sso.card.scopesHint')}
        rules={[required(t('sso.card.scopes'))]}
      >
        <Input maxLength={256} />
      </Form.Item>
      <Form.Item
        name="usernameClaim"
        label={t('sso.card.usernameClaim')}
        rules={[required(t('sso.card.usernameClaim'))]}
      >
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item name="nameClaim" label={t('sso.card.nameClaim')} rules={[required(t('sso.card.nameClaim'))]}>
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item name="mobileClaim" label={t('sso.card.mobileClaim')} extra={t('sso.card.mobileClaimHint')}>
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item
        name="allowCreate"
        valuePropName="checked"
        label={t('sso.card.allowCreate')}
        extra={t('sso.card.allowCreateHint')}
      >
        <Switch />
      </Form.Item>
      <Form.Item name="enabled" valuePropName="checked" label={t('sso.card.enabled')}>
        <Switch />
      </Form.Item>
      {provider && (
        <Form.Item>
          <Popconfirm
            title={t('sso.card.removeConfirm')}
            onConfirm={() =>
              remove.mutateAsync().then(
                () => notify.success(t('sso.card.removed')),
                (error: unknown) => notify.error(error),
              )
            }
          >
            <Button danger loading={remove.isPending}>
              {t('sso.card.remove')}
            </Button>
          </Popconfirm>
        </Form.Item>
      )}
    </SettingsFormCard>
  );
}
