import { CheckOutlined, MinusOutlined } from '@ant-design/icons';
import { GROUP_FLAGS, type Group } from '@yyp/contracts';
import { Card, Col, Descriptions, Row, Statistic, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { GroupLevelTag } from '../../../shared/labels/GroupLevelTag';

/** The group at a glance: its name, counts, the caller's level and which features are on. */
export function GroupOverviewTab({ group }: { group: Group }) {
  const { t } = useTranslation();
  const settings = group.settings;
  const dob = settings.dobMatchMode;

  return (
    <div className="yyp-stack">
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={8}>
          <Card variant="borderless">
            <Statistic title={t('group.memberCount')} value={group.memberCount} />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card variant="borderless">
            <Statistic title={t('group.organizationCount')} value={group.organizationCount} />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card variant="borderless">
            <div className="yyp-stat-label">{t('group.myLevel')}</div>
            <div className="yyp-stat-tag">
              <GroupLevelTag level={group.accessLevel} />
            </div>
          </Card>
        </Col>
      </Row>
      <Card variant="borderless" title={t('group.tabOverview')}>
        <Descriptions
          column={{ xs: 1, md: 2 }}
          size="small"
          bordered
          items={[
            { key: 'name', label: t('group.name'), children: group.displayName },
            { key: 'id', label: t('group.groupId'), children: <code>{group.id}</code> },
            { key: 'created', label: t('group.createdAt'), children: dayjs(group.createdAt).format('YYYY-MM-DD') },
            {
              key: 'dob',
              label: t('group.dobMatchMode'),
              children: dob ? t(`dobMatchModes.${dob}`) : t('group.off'),
            },
            {
              key: 'history',
              label: t('group.crossOrgHistory'),
              children: settings.crossOrgHistorySearch ? t('group.on') : t('group.off'),
            },
          ]}
        />
      </Card>
      <Card variant="borderless" title={t('group.featuresTitle')}>
        <div className="yyp-flag-grid" aria-label={t('group.featuresTitle')}>
          {GROUP_FLAGS.map((flag) => {
            const on = settings[flag] === true;
            return (
              <Tag
                key={flag}
                color={on ? 'success' : undefined}
                icon={on ? <CheckOutlined /> : <MinusOutlined />}
                className={on ? 'yyp-flag yyp-flag--on' : 'yyp-flag yyp-flag--off'}
              >
                {t(`groupFlags.${flag}`)}
                <span className="yyp-visually-hidden">: {on ? t('group.on') : t('group.off')}</span>
              </Tag>
            );
          })}
        </div>
      </Card>
    </div>
  );
}
