import {
  AccountBookOutlined,
  AlertOutlined,
  AuditOutlined,
  BarChartOutlined,
  CheckSquareOutlined,
  CommentOutlined,
  ControlOutlined,
  DisconnectOutlined,
  FileSearchOutlined,
  PlayCircleOutlined,
  QuestionCircleOutlined,
  ScheduleOutlined,
  SafetyCertificateOutlined,
  SendOutlined,
  SettingOutlined,
  SoundOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Layout, Menu, type MenuProps } from 'antd';
import { useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { useLanguagePreference, useApplySavedLanguage } from '../../shared/account/useLanguagePreference';
import { useMe } from '../../shared/account/useMe';
import { useInactivityLogout } from '../../features/auth/useInactivityLogout';
import { useLogout } from '../../features/auth/useLogout';
import { useDomain } from '../../shared/domain/useDomain';
import { useMyGroups } from '../../shared/groups/useGroups';
import { usePermissions } from '../../shared/permissions/permissions';
import { NotificationBell } from '../../features/notifications/NotificationBell';
import { useRegistryBuckets } from '../../features/registry/useRegistry';
import { useCallingBuckets } from '../../features/calling/useCallingBuckets';
import { ConsultationPoll } from '../../features/consultations/ConsultationPoll';
import { useAllowedStatistics } from '../../features/statistics/useAllowedStatistics';
import { BrandMark } from '../../ui/BrandMark';
import { LanguageSwitch } from '../../ui/LanguageSwitch';
import { useSessionState } from '../../shared/session/useSessionState';
import { selectedNavKey, visibleNavEntries, type NavKey } from './navEntries';
import { AnnouncementBanner } from './AnnouncementBanner';
import { UserMenu } from './UserMenu';

const NAV_ICONS: Record<NavKey, ReactNode> = {
  studies: <FileSearchOutlined />,
  registry: <ScheduleOutlined />,
  criticalValues: <AlertOutlined />,
  quality: <CheckSquareOutlined />,
  calling: <SoundOutlined />,
  statistics: <BarChartOutlined />,
  consultations: <CommentOutlined />,
  reportPublish: <SendOutlined />,
  orders: <AccountBookOutlined />,
  groups: <TeamOutlined />,
  accounts: <SafetyCertificateOutlined />,
  logs: <AuditOutlined />,
  dicomRefusals: <DisconnectOutlined />,
  platformAdmin: <ControlOutlined />,
  learning: <PlayCircleOutlined />,
  help: <QuestionCircleOutlined />,
  settings: <SettingOutlined />,
};

/**
 * Signed-in frame: navbar with product, main entries, language and user menu. It frames the child
 * routes, or `children` for a route that decides on its own whether it is signed in (/upload).
 */
export function AppShell({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const { domain } = useDomain();
  const { session } = useSessionState();
  const me = useMe();
  const myGroups = useMyGroups();
  const bucketActions = usePermissions();
  const registryBuckets = useRegistryBuckets();
  const callingBuckets = useCallingBuckets();
  const allowedStatistics = useAllowedStatistics();
  const logout = useLogout();
  const { language, changeLanguage } = useLanguagePreference();
  useApplySavedLanguage(me.data);

  const handleInactive = useCallback(() => {
    void logout('inactive');
  }, [logout]);
  useInactivityLogout({ maxInactiveMinutes: domain.maxInactiveMinutes, onInactive: handleInactive });

  function handleLogout() {
    void logout('user');
  }

  function handleProfile() {
    void navigate('/settings/profile');
  }

  function handleLanguageChange(next: typeof language) {
    void changeLanguage(next);
  }

  const entries = visibleNavEntries(
    myGroups.data,
    bucketActions.anywhere,
    me.data?.isPlatformAdmin === true,
    (registryBuckets.data?.length ?? 0) > 0,
    (callingBuckets.data?.length ?? 0) > 0,
    (allowedStatistics.data?.items.length ?? 0) > 0,
  );
  const items: MenuProps['items'] = entries.map((entry) => ({
    key: entry.key,
    icon: NAV_ICONS[entry.key],
    label: <Link to={entry.path}>{t(entry.label)}</Link>,
  }));
  // The consultation poll runs where a group of the caller has consultations on (its sound where that group asks).
  const consultationGroups = (myGroups.data ?? []).filter((group) => group.settings.enableConsultation === true);
  const productName = domain.displayName || t('app.defaultName');

  return (
    <Layout className="yyp-shell">
      <Layout.Header className="yyp-shell__header">
        <Link to="/studies" className="yyp-shell__brand" aria-label={productName}>
          <BrandMark name={productName} logo={domain.logo || undefined} size={28} />
        </Link>
        <nav className="yyp-shell__nav" aria-label={t('nav.mainMenu')}>
          <Menu theme="dark" mode="horizontal" items={items} selectedKeys={selectedNavKey(location.pathname)} />
        </nav>
        <div className="yyp-shell__actions">
          <NotificationBell />
          <LanguageSwitch value={language} onChange={handleLanguageChange} tone="inverse" />
          <UserMenu
            user={me.data}
            fallbackName={session?.username ?? ''}
            onProfile={handleProfile}
            onLogout={handleLogout}
          />
        </div>
      </Layout.Header>
      {consultationGroups.length > 0 && (
        <ConsultationPoll sound={consultationGroups.some((group) => group.settings.autoConsulNotifyAudio === true)} />
      )}
      <AnnouncementBanner />
      <Layout.Content className="yyp-shell__content">{children ?? <Outlet />}</Layout.Content>
    </Layout>
  );
}
