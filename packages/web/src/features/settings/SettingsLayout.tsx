import {
  BellOutlined,
  ControlOutlined,
  MobileOutlined,
  SignatureOutlined,
  TeamOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { Layout, Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { useMe } from '../../shared/account/useMe';
import { useDomain } from '../../shared/domain/useDomain';

/** Settings sub-pages of spec 000 §2 that exist so far; others join as they arrive. */
const SETTINGS_PAGES = [
  { key: 'profile', path: '/settings/profile', icon: <UserOutlined />, label: 'settings.menuProfile' },
  { key: 'groups', path: '/settings/groups', icon: <TeamOutlined />, label: 'myGroups.menu' },
  { key: 'signature', path: '/settings/signature', icon: <SignatureOutlined />, label: 'signature.menu' },
  { key: 'mobile', path: '/settings/mobile', icon: <MobileOutlined />, label: 'mobile.menu' },
  { key: 'notifications', path: '/settings/notifications', icon: <BellOutlined />, label: 'myNotifications.menu' },
  // The platform admin's page (issue 27), for platform admins only.
  { key: 'admin', path: '/settings/admin', icon: <ControlOutlined />, label: 'platformAdmin.menu' },
  // Billing only with the domain's payment service on (spec 000 §2).
  { key: 'billing', path: '/settings/billing', icon: <WalletOutlined />, label: 'billing.settings.menu' },
] as const;

/** /settings/*: side menu of the personal settings pages. */
export function SettingsLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const { domain } = useDomain();
  const me = useMe();
  const pages = SETTINGS_PAGES.filter(
    (page) =>
      (page.key !== 'billing' || domain.enablePaymentService) &&
      (page.key !== 'admin' || me.data?.isPlatformAdmin === true),
  );
  const items: MenuProps['items'] = pages.map((page) => ({
    key: page.key,
    icon: page.icon,
    label: <Link to={page.path}>{t(page.label)}</Link>,
  }));
  const selected = pages.filter((page) => location.pathname.startsWith(page.path)).map((page) => page.key);

  return (
    <Layout className="yyp-settings">
      <Layout.Sider width={220} theme="light" className="yyp-settings__sider" breakpoint="md" collapsedWidth={0}>
        <div className="yyp-settings__title">{t('settings.title')}</div>
        <Menu mode="inline" items={items} selectedKeys={selected} />
      </Layout.Sider>
      <Layout.Content className="yyp-settings__content">
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
