import { AuditOutlined } from '@ant-design/icons';
import { GROUP_ACCESS_LEVELS, type Group } from '@yyp/contracts';
import { Button, Card, Skeleton, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { MissingResult } from '../../ui/MissingResult';
import { PageHeading } from '../../ui/PageHeading';
import { useMe } from '../../shared/account/useMe';
import { DicomRefusalsTable } from './DicomRefusalsTable';
import { HeadingPicker } from './GroupPicker';
import { useLevelGroup } from './useLevelGroup';

/** The value of the scope picker that stands for every refusal (the platform admin's view). */
const ALL = '';

/**
 * /dicom-refusals: refused DICOM associations. The platform admin reads all of them; a group's
 * auditors (level 9) read those that concern the AE titles of the group's organizations
 * (?groupId=, reached from the operation log). Others are shown a 403.
 */
export function DicomRefusalsPage() {
  const { t } = useTranslation();
  const me = useMe();
  const { query, groups } = useLevelGroup(GROUP_ACCESS_LEVELS.auditor);
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();

  const failed = me.isError ? me : query.isError ? query : undefined;
  if (failed) {
    return (
      <div className="yyp-page">
        <LoadFailedAlert error={failed.error} onRetry={() => void failed.refetch()} />
      </div>
    );
  }
  if (me.isPending || query.isPending) {
    return (
      <div className="yyp-page">
        <Skeleton active paragraph={{ rows: 8 }} />
      </div>
    );
  }
  const platformAdmin = me.data?.isPlatformAdmin === true;
  const requested = searchParams.get('groupId');
  const group = groups.find((g) => g.id === requested) ?? (platformAdmin ? undefined : groups[0]);
  if (!group && !platformAdmin) {
    return (
      <MissingResult
        status="403"
        title={t('dicomRefusals.forbiddenTitle')}
        description={t('dicomRefusals.forbiddenDescription')}
        backTo="/studies"
        backLabel={t('common.backToHome')}
      />
    );
  }

  function select(value: string) {
    setSearchParams(value === ALL ? {} : { groupId: value }, { replace: true });
  }

  return (
    <div className="yyp-page">
      <PageHeading
        title={t('dicomRefusals.title')}
        description={
          group ? t('dicomRefusals.subtitleGroup', { group: group.displayName }) : t('dicomRefusals.subtitleAll')
        }
        extra={
          <Space size={12} wrap>
            <ScopePicker platformAdmin={platformAdmin} groups={groups} value={group} onChange={select} />
            {group && (
              <Button
                icon={<AuditOutlined />}
                onClick={() => void navigate(`/logs?groupId=${encodeURIComponent(group.id)}`)}
              >
                {t('dicomRefusals.backToAuditLog')}
              </Button>
            )}
          </Space>
        }
      />
      <Card variant="borderless">
        <DicomRefusalsTable key={group?.id ?? ALL} groupId={group?.id ?? null} />
      </Card>
    </div>
  );
}

interface ScopePickerProps {
  platformAdmin: boolean;
  groups: Group[];
  /** the group shown; undefined: all refusals */
  value: Group | undefined;
  onChange: (value: string) => void;
}

/** All refusals (platform admin) or one group's; a single choice is shown, not offered. */
function ScopePicker({ platformAdmin, groups, value, onChange }: ScopePickerProps) {
  const { t } = useTranslation();
  const options = [
    ...(platformAdmin ? [{ value: ALL, label: t('dicomRefusals.scopeAll') }] : []),
    ...groups.map((g) => ({ value: g.id, label: g.displayName })),
  ];
  return (
    <HeadingPicker label={t('dicomRefusals.scope')} options={options} value={value?.id ?? ALL} onChange={onChange} />
  );
}
