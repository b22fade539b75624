import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import type { Group, User } from '@yyp/contracts';
import { Alert, Button, Descriptions, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { useMe } from '../../../shared/account/useMe';
import { useMyGroups } from '../../../shared/groups/useGroups';

function Check({ ok, children }: { ok: boolean; children: ReactNode }) {
  return (
    <li className={ok ? 'yyp-check yyp-check--ok' : 'yyp-check yyp-check--failed'}>
      {ok ? <CheckCircleFilled /> : <CloseCircleFilled />}
      <span>{children}</span>
    </li>
  );
}

/** Whether this account may create a group: creation unlocked and no group yet (spec 000 §5). */
export function canCreateGroup(user: User | undefined, groups: readonly Group[] | undefined): boolean {
  return Boolean(user?.canCreateGroup) && (groups?.length ?? 0) === 0;
}

/** Step 1 of the wizard: who is signed in, and whether they may create a group. */
export function CheckAccountStep({ onNext }: { onNext: () => void }) {
  const { t } = useTranslation();
  const me = useMe();
  const groups = useMyGroups();

  if (me.isError || groups.isError) {
    return (
      <LoadFailedAlert
        error={me.error ?? groups.error}
        onRetry={() => {
          void me.refetch();
          void groups.refetch();
        }}
      />
    );
  }
  if (!me.data || !groups.data) {
    return <Skeleton active paragraph={{ rows: 4 }} />;
  }
  const user = me.data;
  const current = groups.data[0];
  const allowed = canCreateGroup(user, groups.data);

  return (
    <div className="yyp-wizard-step">
      <Descriptions
        title={t('groupCreate.accountTitle')}
        column={1}
        size="small"
        bordered
        items={[
          { key: 'name', label: t('fields.name'), children: user.name },
          { key: 'username', label: t('fields.username'), children: user.username },
        ]}
      />
      <div>
        <div className="yyp-section-title">{t('groupCreate.checksTitle')}</div>
        <ul className="yyp-stack-list">
          <Check ok={user.canCreateGroup}>
            {user.canCreateGroup ? t('groupCreate.unlocked') : t('groupCreate.notUnlocked')}
          </Check>
          <Check ok={!current}>
            {current ? t('groupCreate.inGroup', { name: current.displayName }) : t('groupCreate.noGroup')}
          </Check>
        </ul>
      </div>
      {current && (
        <Alert
          type="info"
          showIcon
          title={<Link to={`/groups/${encodeURIComponent(current.id)}`}>{t('groupCreate.goToGroup')}</Link>}
        />
      )}
      <div className="yyp-wizard-actions">
        <Button type="primary" disabled={!allowed} onClick={onNext} autoFocus={allowed}>
          {t('groupCreate.next')}
        </Button>
      </div>
    </div>
  );
}
