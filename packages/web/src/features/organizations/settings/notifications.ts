import type { Organization } from '@yyp/contracts';

export interface OrgNotifications {
  newExam: boolean;
  criticalValue: boolean;
  consultation: boolean;
  uploadNotifyAccountIds: string[];
}

/** The notification settings stored in an organization's free-form settings, read defensively. */
export function notificationsOf(organization: Pick<Organization, 'settings'>): OrgNotifications {
  const raw = organization.settings.notifications;
  const stored = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const ids = stored.uploadNotifyAccountIds;
  return {
    newExam: stored.newExam === true,
    criticalValue: stored.criticalValue === true,
    consultation: stored.consultation === true,
    uploadNotifyAccountIds: Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [],
  };
}
