import { DICTIONARY_KINDS, type Group, type Organization } from '@yyp/contracts';
import { Card, Col, Row, Tabs } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DictionaryEditor } from '../dictionaries/DictionaryEditor';
import type { OrgAccess } from '../orgAccess';
import { DeleteOrganizationCard } from './DeleteOrganizationCard';
import { NotificationsCard } from './NotificationsCard';
import { OrderTemplateCard } from './OrderTemplateCard';
import { OrgGeneralCard } from './OrgGeneralCard';
import { UploadTokenCard } from './UploadTokenCard';

interface OrgSettingsTabProps {
  group: Group;
  organization: Organization;
  access: OrgAccess;
  /** the print template card (the reports feature's; app/ hands it in through OrganizationPage) */
  printTemplateCard?: (organization: Organization) => ReactNode;
  /** the call queues card (the calling feature's; app/ hands it in through OrganizationPage) */
  callQueuesCard?: (organization: Organization, group: Group) => ReactNode;
}

/** Organization settings (its admins and group admins): general, upload token, notifications, call queues, dictionaries. */
export function OrgSettingsTab({
  group,
  organization,
  access,
  printTemplateCard,
  callQueuesCard,
}: OrgSettingsTabProps) {
  const { t } = useTranslation();
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={12}>
        <div className="yyp-stack">
          <OrgGeneralCard organization={organization} />
          <NotificationsCard organization={organization} />
        </div>
      </Col>
      <Col xs={24} xl={12}>
        <div className="yyp-stack">
          <UploadTokenCard organization={organization} />
          {printTemplateCard?.(organization)}
          <OrderTemplateCard organization={organization} />
        </div>
      </Col>
      {callQueuesCard && <Col span={24}>{callQueuesCard(organization, group)}</Col>}
      <Col span={24}>
        <Card variant="borderless" title={t('org.dictionariesTitle')}>
          <Tabs
            destroyOnHidden
            items={DICTIONARY_KINDS.map((kind) => ({
              key: kind,
              label: t(`dictionaryKinds.${kind}`),
              children: <DictionaryEditor bucketId={organization.id} kind={kind} />,
            }))}
          />
        </Card>
      </Col>
      {access.canDelete && (
        <Col span={24}>
          <DeleteOrganizationCard group={group} organization={organization} />
        </Col>
      )}
    </Row>
  );
}
