import { DownOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import type { User } from '@yyp/contracts';
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';

interface UserMenuProps {
  user: User | undefined;
  fallbackName: string;
  onProfile: () => void;
  onLogout: () => void;
}

/** Avatar and name in the navbar; opens profile/settings and logout. */
export function UserMenu({ user, fallbackName, onProfile, onLogout }: UserMenuProps) {
  const { t } = useTranslation();
  const displayName = user?.name || user?.username || fallbackName;
  const items: MenuProps['items'] = [
    { key: 'profile', icon: <UserOutlined />, label: t('nav.profile') },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('nav.logout'), danger: true },
  ];

  function handleClick({ key }: { key: string }) {
    if (key === 'profile') {
      onProfile();
    } else if (key === 'logout') {
      onLogout();
    }
  }

  return (
    <Dropdown menu={{ items, onClick: handleClick }} trigger={['click']} placement="bottomRight">
      <Button type="text" className="yyp-user-menu" aria-label={t('nav.userMenu')}>
        <Avatar size={28} src={user?.avatar || undefined} className="yyp-user-menu__avatar">
          {displayName.slice(0, 1).toUpperCase()}
        </Avatar>
        <span className="yyp-user-menu__name">{displayName}</span>
        <DownOutlined className="yyp-user-menu__caret" />
      </Button>
    </Dropdown>
  );
}
