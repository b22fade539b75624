import { DisconnectOutlined } from '@ant-design/icons';
import { GROUP_ACCESS_LEVELS, type Group } from '@yyp/contracts';
import { Button, Card, Skeleton, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { MissingResult } from '../../ui/MissingResult';
import { PageHeading } from '../../ui/PageHeading';
import { AuditLogTable } from './AuditLogTable';
import { GroupPicker } from './GroupPicker';
import { useLevelGroup } from './useLevelGroup';

/** /logs: the operation log of a group, for its auditors (level 9) only. */
export function AuditLogPage() {
  const { t } = useTranslation();
  const { query, groups, selected, select } = useLevelGroup(GROUP_ACCESS_LEVELS.auditor);

  if (query.isError) {
    return (
      <div className="yyp-page">
        <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} />
      </div>
    );
  }
  if (query.isPending) {
    return (
      <div className="yyp-page">
        <Skeleton active paragraph={{ rows: 8 }} />
      </div>
    );
  }
  if (!selected) {
    return (
      <MissingResult
        status="403"
        title={t('auditLog.forbiddenTitle')}
        description={t('auditLog.forbiddenDescription')}
        backTo="/studies"
        backLabel={t('common.backToHome')}
      />
    );
  }
  return <AuditLogView groups={groups} group={selected} onSelect={select} />;
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
