import type { Organization } from '@yyp/contracts';
import { Alert, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OrgAccess } from '../orgAccess';
import { DevicesPanel } from './DevicesPanel';
import { DeviceGroupsPanel, ModalitiesPanel } from './DictionaryPanels';
import { ForwardingPanel } from './ForwardingPanel';
import { ProcedureListPanel } from './ProcedureListPanel';
import './procedures.css';

/**
 * Procedure management, an organization admin tab (spec 000 §2; issue 22): the procedures the desk
 * registers for, the devices that perform them, device groups, the modality dictionary and the
 * forwarding rules that send new studies to devices (issue 28). Members
 * read it (bucket_read); organization and group admins change it (bucket_manage, `canManage`).
 */
export function ProceduresTab({ organization, access }: { organization: Organization; access: OrgAccess }) {
  const { t } = useTranslation();
  const bucketId = organization.id;
  const canManage = access.canManage;
  const items = [
    {
      key: 'procedures',
      label: t('procedures.sections.procedures'),
      children: <ProcedureListPanel bucketId={bucketId} canManage={canManage} />,
    },
    {
      key: 'devices',
      label: t('procedures.sections.devices'),
      children: <DevicesPanel bucketId={bucketId} canManage={canManage} />,
    },
    {
      key: 'deviceGroups',
      label: t('procedures.sections.deviceGroups'),
      children: <DeviceGroupsPanel bucketId={bucketId} canManage={canManage} />,
    },
    {
      key: 'modalities',
      label: t('procedures.sections.modalities'),
      children: <ModalitiesPanel bucketId={bucketId} canManage={canManage} />,
    },
    {
      key: 'forwarding',
      label: t('procedures.sections.forwarding'),
      children: <ForwardingPanel bucketId={bucketId} canManage={canManage} />,
    },
  ];
  return (
    <div className="yyp-procedures-tab">
      {!canManage && <Alert type="info" showIcon title={t('procedures.readOnly')} className="yyp-procedures__notice" />}
      <Tabs type="card" size="small" items={items} destroyOnHidden />
    </div>
  );
}
