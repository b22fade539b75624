import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DomainConfig, PlatformGroup, UpdateDomainConfig } from '@yyp/contracts';
import {
  Alert,
  Button,
  Card,
  Col,
  Divider,
  Form,
  Input,
  InputNumber,
  Result,
  Row,
  Switch,
  Tabs,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { queryPlatformGroups } from '../../api/admin';
import { updateDomain } from '../../api/domain';
import { queryKeys } from '../../api/queryClient';
import { useMe } from '../../shared/account/useMe';
import { useDomain } from '../../shared/domain/useDomain';
import { useNotify } from '../../shared/notify/useNotify';
import { FooterHtml } from '../../ui/FooterHtml';
import { PageHeading } from '../../ui/PageHeading';
import { fixedPagination, PagedQueryTable } from '../../ui/QueryTable';
import { AuditLogTable } from './AuditLogTable';
import { LearningVideosTab } from './LearningVideosTab';
import { GlobalSettingsTab } from './GlobalSettingsTab';
import { SsoStatusTab } from './SsoStatusTab';
import { SmsStatusTab } from './SmsStatusTab';

type DomainValues = Omit<DomainConfig, 'id'>;

/** The switches of the domain configuration, in the order the form shows them. */
const SECURITY_SWITCHES = ['allowRegistration', 'requireStrongPwd', 'auditLogOn'] as const;
const FEATURE_SWITCHES = [
  'enablePaymentService',
  'autoCreateRemoteReport',
  'allowOverview',
  'allowWxNotice',
  'isPet',
  'hideSupportCompany',
] as const;
const MAX_INACTIVE_MINUTES = 7 * 24 * 60;
const PICTURE_PATTERN = /^(|https?:\/\/[^\s"'()<>\\]+|\/(?!\/)[^\s"'()<>\\]*)$/i;

/** The fields that differ from the stored configuration: PUT domain sends only those. */
function changes(values: DomainValues, stored: DomainConfig): UpdateDomainConfig {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const next = typeof value === 'string' ? value.trim() : value;
    if (next !== stored[key as keyof DomainConfig]) out[key] = next;
  }
  return out as UpdateDomainConfig;
}

/**
 * /settings/admin (issue 27): the platform admin's page. The domain configuration of spec 000
 * §1 (branding, registration, password policy, inactivity limit, features), every group of the
 * platform, and the platform's operation log. Branding shows on the next login page at once.
 */
export function PlatformAdminPage() {
  const { t } = useTranslation();
  const me = useMe();
  if (me.data && !me.data.isPlatformAdmin) {
    return <Result status="403" title={t('platformAdmin.forbiddenTitle')} subTitle={t('platformAdmin.forbidden')} />;
  }
  return (
    <div className="yyp-page">
      <PageHeading title={t('platformAdmin.title')} description={t('platformAdmin.description')} />
      {me.data && (
        <Tabs
          items={[
            { key: 'domain', label: t('platformAdmin.tabDomain'), children: <DomainSettings /> },
            { key: 'groups', label: t('platformAdmin.tabGroups'), children: <PlatformGroups /> },
            { key: 'learning', label: t('learningAdmin.tab'), children: <LearningVideosTab /> },
            { key: 'global', label: t('globalSettings.tab'), children: <GlobalSettingsTab /> },
            { key: 'sso', label: t('sso.admin.tab'), children: <SsoStatusTab /> },
            { key: 'sms', label: t('smsAdmin.tab'), children: <SmsStatusTab /> },
            {
              key: 'log',
              label: t('platformAdmin.tabLog'),
              children: (
                <Card variant="borderless">
                  <Typography.Paragraph type="secondary">
                    {t('platformAdmin.logHint')} <Link to="/dicom-refusals">{t('platformAdmin.dicomRefusals')}</Link>
                  </Typography.Paragraph>
                  <AuditLogTable groupId={null} />
                </Card>
              ),
            },
          ]}
        />
      )}
    </div>
  );
}

function DomainSettings() {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { domain } = useDomain();
  const [form] = Form.useForm<DomainValues>();
  const footer = Form.useWatch('footerHtml', form) ?? domain.footerHtml;
  const save = useMutation({
    mutationFn: updateDomain,
    onSuccess: (stored) => queryClient.setQueryData(queryKeys.domain, stored),
  });

  useEffect(() => {
    form.setFieldsValue(domain);
  }, [form, domain]);

  async function handleFinish(values: DomainValues) {
    const body = changes(values, domain);
    if (Object.keys(body).length === 0) {
      notify.success(t('platformAdmin.nothingChanged'));
      return;
    }
    try {
      await save.mutateAsync(body);
      notify.success(t('platformAdmin.saved'));
    } catch (error) {
      notify.error(error);
    }
  }

  const pictureRule = { pattern: PICTURE_PATTERN, message: t('platformAdmin.pictureInvalid') };
  const switches = (keys: readonly ((typeof SECURITY_SWITCHES)[number] | (typeof FEATURE_SWITCHES)[number])[]) =>
    keys.map((key) => (
      <Form.Item
        key={key}
        name={key}
        valuePropName="checked"
        label={t(`platformAdmin.field.${key}`)}
        extra={t(`platformAdmin.hint.${key}`)}
      >
        <Switch />
      </Form.Item>
    ));

  return (
    <Form<DomainValues> form={form} layout="vertical" initialValues={domain} onFinish={handleFinish}>
      <Row gutter={[24, 24]}>
        <Col xs={24} xl={12}>
          <Card variant="borderless" title={t('platformAdmin.branding')}>
            <Form.Item
              name="displayName"
              label={t('platformAdmin.field.displayName')}
              rules={[{ required: true, whitespace: true, max: 64, message: t('platformAdmin.displayNameInvalid') }]}
            >
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item name="company" label={t('platformAdmin.field.company')} rules={[{ max: 128 }]}>
              <Input maxLength={128} />
            </Form.Item>
            <Form.Item name="website" label={t('platformAdmin.field.website')} rules={[{ max: 256 }]}>
              <Input maxLength={256} inputMode="url" />
            </Form.Item>
            <Form.Item
              name="displayDomainName"
              label={t('platformAdmin.field.displayDomainName')}
              rules={[{ max: 128 }]}
            >
              <Input maxLength={128} />
            </Form.Item>
            <Form.Item
              name="logo"
              label={t('platformAdmin.field.logo')}
              extra={t('platformAdmin.hint.picture')}
              rules={[pictureRule]}
            >
              <Input maxLength={1024} inputMode="url" placeholder="https://…/logo.png" />
            </Form.Item>
            <Form.Item
              name="bgImgUrl"
              label={t('platformAdmin.field.bgImgUrl')}
              extra={t('platformAdmin.hint.picture')}
              rules={[pictureRule]}
            >
              <Input maxLength={1024} inputMode="url" placeholder="https://…/background.jpg" />
            </Form.Item>
            <Form.Item
              name="footerHtml"
              label={t('platformAdmin.field.footerHtml')}
              extra={t('platformAdmin.hint.footerHtml')}
              rules={[{ max: 4096 }]}
            >
              <Input.TextArea rows={3} maxLength={4096} className="yyp-code-input" />
            </Form.Item>
            <div className="yyp-footer-preview" aria-label={t('platformAdmin.footerPreview')}>
              <Typography.Text type="secondary">{t('platformAdmin.footerPreview')}</Typography.Text>
              <div>
                <FooterHtml html={footer} />
              </div>
            </div>
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card variant="borderless" title={t('platformAdmin.security')}>
            {switches(SECURITY_SWITCHES)}
            <Form.Item
              name="maxInactiveMinutes"
              label={t('platformAdmin.field.maxInactiveMinutes')}
              extra={t('platformAdmin.hint.maxInactiveMinutes')}
              rules={[
                {
                  type: 'integer',
                  min: 0,
                  max: MAX_INACTIVE_MINUTES,
                  required: true,
                  message: t('platformAdmin.minutesInvalid', { max: MAX_INACTIVE_MINUTES }),
                },
              ]}
            >
              <InputNumber min={0} max={MAX_INACTIVE_MINUTES} precision={0} addonAfter={t('platformAdmin.minutes')} />
            </Form.Item>
            <Divider />
            <Typography.Title level={5}>{t('platformAdmin.features')}</Typography.Title>
            {switches(FEATURE_SWITCHES)}
          </Card>
        </Col>
      </Row>
      <div className="yyp-form-actions">
        {save.isError && <Alert type="error" showIcon title={t('platformAdmin.saveFailed')} />}
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </div>
    </Form>
  );
}

const GROUP_PAGE_SIZE = 20;

function PlatformGroups() {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const groups = useQuery({
    queryKey: ['admin', 'platform-groups', q, page],
    queryFn: ({ signal }) =>
      queryPlatformGroups({ ...(q ? { q } : {}), skip: (page - 1) * GROUP_PAGE_SIZE, limit: GROUP_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
  const columns: TableColumnsType<PlatformGroup> = [
    { key: 'name', title: t('platformAdmin.groupName'), render: (_, g) => g.displayName },
    { key: 'id', title: t('platformAdmin.groupId'), render: (_, g) => <Typography.Text code>{g.id}</Typography.Text> },
    { key: 'members', title: t('platformAdmin.members'), align: 'right', render: (_, g) => g.memberCount },
    {
      key: 'organizations',
      title: t('platformAdmin.organizations'),
      align: 'right',
      render: (_, g) => g.organizationCount,
    },
    {
      key: 'stat',
      title: t('platformAdmin.statistics'),
      render: (_, g) =>
        g.enableStat ? <Tag color="green">{t('platformAdmin.on')}</Tag> : <Tag>{t('platformAdmin.off')}</Tag>,
    },
    { key: 'created', title: t('platformAdmin.created'), render: (_, g) => dayjs(g.createdAt).format('YYYY-MM-DD') },
  ];
  return (
    <Card
      variant="borderless"
      extra={
        <Input.Search
          allowClear
          placeholder={t('platformAdmin.searchGroups')}
          aria-label={t('platformAdmin.searchGroups')}
          onSearch={(value) => {
            setQ(value.trim());
            setPage(1);
          }}
          className="yyp-search"
        />
      }
      title={t('platformAdmin.tabGroups')}
    >
      <PagedQueryTable<PlatformGroup>
        query={groups}
        rows={groups.data?.groups}
        rowKey="id"
        size="small"
        columns={columns}
        pagination={{
          ...fixedPagination(page, GROUP_PAGE_SIZE, groups.data?.count ?? 0, setPage),
          hideOnSinglePage: false,
          showTotal: (total) => t('platformAdmin.groupsTotal', { count: total }),
        }}
      />
    </Card>
  );
}
