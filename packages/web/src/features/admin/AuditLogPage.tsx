import { DisconnectOutlined } from '@ant-design/icons';
import { GROUP_ACCESS_LEVELS, type Group } from '@yyp/contracts';
import { Button, Card, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeading } from '../../ui/PageHeading';
import { AuditLogTable } from './AuditLogTable';
import { GroupPicker } from './GroupPicker';
import { LevelGroupPage } from './LevelGroupPage';

/** /logs: the operation log of a group, for its auditors (level 9) only. */
export function AuditLogPage() {
  const { t } = useTranslation();
  return (
    <LevelGroupPage
      level={GROUP_ACCESS_LEVELS.auditor}
      forbidden={{ title: t('auditLog.forbiddenTitle'), description: t('auditLog.forbiddenDescription') }}
    >
      {(view) => <AuditLogView {...view} />}
    </LevelGroupPage>
  );
}

function AuditLogView({ groups, group, onSelect }: { groups: Group[]; group: Group; onSelect: (id: string) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="yyp-page">
      <PageHeading
        title={t('auditLog.title')}
        description={t('auditLog.subtitle')}
        extra={
          <Space size={12} wrap>
            <GroupPicker groups={groups} value={group} onChange={onSelect} />
            <Button
              icon={<DisconnectOutlined />}
              onClick={() => void navigate(`/dicom-refusals?groupId=${encodeURIComponent(group.id)}`)}
            >
              {t('dicomRefusals.open')}
            </Button>
          </Space>
        }
      />
      <Card variant="borderless">
        <AuditLogTable key={group.id} groupId={group.id} />
      </Card>
    </div>
  );
}
