import { Card, Col, Descriptions, Row, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDomain } from '../../shared/domain/useDomain';
import { useGlobalConfigs } from '../../shared/globalConfigs/useGlobalConfigs';
import { PageHeading } from '../../ui/PageHeading';

interface Shortcut {
  keys: string;
  /** an i18n key under help */
  action: string;
}

/** The app's keyboard shortcuts, by screen (as the screens bind them: reports/shortcuts.ts, RegistryPage, the viewer, the video room). */
const SHORTCUTS: { area: string; items: Shortcut[] }[] = [
  {
    area: 'help.reportEditor',
    items: [
      { keys: 'Ctrl+S', action: 'help.save' },
      { keys: 'Ctrl+Enter', action: 'help.submit' },
      { keys: 'Ctrl+Shift+Enter', action: 'help.approve' },
      { keys: 'Alt+N', action: 'help.next' },
      { keys: 'F1', action: 'help.keyImage' },
    ],
  },
  { area: 'help.registry', items: [{ keys: 'F2 / Alt+N', action: 'help.newRegistration' }] },
  {
    area: 'help.viewer',
    items: [
      { keys: 'W', action: 'help.windowLevel' },
      { keys: 'Z', action: 'help.zoom' },
      { keys: 'P', action: 'help.pan' },
      { keys: 'S', action: 'help.scroll' },
      { keys: 'L', action: 'help.measure' },
      { keys: '1 – 6', action: 'help.presets' },
    ],
  },
  { area: 'help.videoRoom', items: [{ keys: 'Alt+M / Alt+V / Alt+S / Alt+L', action: 'help.videoKeys' }] },
];

/** /help (navbar "Help", spec 000 §2): keyboard shortcuts and whom to contact, in the three languages. */
export function HelpPage() {
  const { t } = useTranslation();
  const { domain } = useDomain();
  const support = useGlobalConfigs().data;
  const columns: TableColumnsType<Shortcut> = [
    {
      key: 'keys',
      title: t('help.keys'),
      width: 240,
      render: (_, s) => <Typography.Text keyboard>{s.keys}</Typography.Text>,
    },
    { key: 'action', title: t('help.action'), render: (_, s) => t(s.action as 'help.save') },
  ];
  return (
    <div className="yyp-page">
      <PageHeading title={t('help.title')} description={t('help.description')} />
      <Row gutter={[24, 24]}>
        <Col xs={24} xl={14}>
          <Card variant="borderless" title={t('help.shortcuts')}>
            {SHORTCUTS.map((group) => (
              <section key={group.area} aria-label={t(group.area as 'help.viewer')}>
                <Typography.Title level={5}>{t(group.area as 'help.viewer')}</Typography.Title>
                <Table<Shortcut>
                  size="small"
                  rowKey="keys"
                  pagination={false}
                  columns={columns}
                  dataSource={group.items}
                  style={{ marginBottom: 16 }}
                />
              </section>
            ))}
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card variant="borderless" title={t('help.contact')}>
            <Typography.Paragraph>{t('help.contactHint')}</Typography.Paragraph>
            <Descriptions column={1} size="small">
              {domain.company && !domain.hideSupportCompany && (
                <Descriptions.Item label={t('help.company')}>{domain.company}</Descriptions.Item>
              )}
              {domain.website && (
                <Descriptions.Item label={t('help.website')}>
                  <Typography.Link href={domain.website} target="_blank" rel="noreferrer">
                    {domain.website}
                  </Typography.Link>
                </Descriptions.Item>
              )}
              {support?.supportPhone && (
                <Descriptions.Item label={t('help.phone')}>
                  <Typography.Link href={`tel:${support.supportPhone.replace(/[^+0-9]/g, '')}`}>
                    {support.supportPhone}
                  </Typography.Link>
                </Descriptions.Item>
              )}
              {support?.supportEmail && (
                <Descriptions.Item label={t('help.email')}>
                  <Typography.Link href={`mailto:${support.supportEmail}`}>{support.supportEmail}</Typography.Link>
                </Descriptions.Item>
              )}
              {support?.helpUrl && (
                <Descriptions.Item label={t('help.moreHelp')}>
                  <Typography.Link href={support.helpUrl} target="_blank" rel="noreferrer">
                    {support.helpUrl}
                  </Typography.Link>
                </Descriptions.Item>
              )}
            </Descriptions>
            <Typography.Paragraph>
              <Link to="/learning">{t('help.learningLink')}</Link>
            </Typography.Paragraph>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
