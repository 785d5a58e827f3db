import {
  AppstoreOutlined,
  BellOutlined,
  CloudOutlined,
  DashboardOutlined,
  DisconnectOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  MoonOutlined,
  SunOutlined,
  UserOutlined,
} from '@ant-design/icons';
import {
  Avatar,
  Badge,
  Button,
  Dropdown,
  Empty,
  Flex,
  List,
  Popover,
  Tooltip,
  Typography,
  theme,
  type MenuProps,
} from 'antd';
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { liveStore } from '../../api/live';
import { connectionLevel } from '../../api/liveRules';
import {
  APPLICATIONS_ROUTE,
  DASHBOARD_PRECISION_ROUTE,
  EDIT_PROFILE_ROUTE,
  LOGIN_ROUTE,
  titleKeyFor,
} from '../../app/routeTitles';
import { LANGUAGES, updateSettings, useSettings } from '../../app/settings';
import { useStore } from '../../app/store';
import { LANGUAGE_NAMES } from '../../i18n';
import { canEditProfile, hasApplications } from '../auth/rules';
import { signOut } from '../auth/signOut';
import { useAuthUser } from '../auth/session';
import { useSelectedDevice } from '../devices/selection';

interface TopBarProps {
  collapsed: boolean;
  onToggleMenu: () => void;
}

function NotificationBell() {
  const { t } = useTranslation();
  const notifications = useStore(liveStore, (s) => s.notifications);
  const notificationType = (type: string) =>
    type === 'STATUS' || type === 'ANOMALY' || type === 'NILM' || type === 'DISCONNECTOR'
      ? t(`shell.notification_types.${type}`)
      : type;
  const content = notifications.length ? (
    <List
      size="small"
      style={{ width: 320 }}
      dataSource={notifications}
      renderItem={(n) => (
        <List.Item>
          <List.Item.Meta
            title={[notificationType(n.type), n.data.name].filter(Boolean).join(' · ')}
            description={
              <>
                {[n.data.event, n.data.message, n.data.phase].filter(Boolean).join(' · ')}
                {n.data.timestamp ? (
                  <div>
                    <Typography.Text type="secondary">
                      {dayjs(n.data.timestamp * (n.data.timestamp < 1e11 ? 1000 : 1)).format('L LTS')}
                    </Typography.Text>
                  </div>
                ) : null}
              </>
            }
          />
        </List.Item>
      )}
    />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('shell.no_notifications')} />
  );
  return (
    <Popover trigger="click" placement="bottomRight" title={t('shell.notifications')} content={content}>
      <Button
        type="text"
        aria-label={t('shell.notifications')}
        icon={
          <Badge count={notifications.length} size="small">
            <BellOutlined style={{ fontSize: 18 }} />
          </Badge>
        }
      />
    </Popover>
  );
}

function ConnectionIcon() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const device = useSelectedDevice();
  const connected = useStore(liveStore, (s) => s.connected);
  const runtime = useStore(liveStore, (s) => (device ? s.devices[device.mac] : undefined));
  const level = connected ? connectionLevel(runtime) : 0;
  const on = level > 0;
  const label = `${on ? t('shell.connected') : t('shell.not_connected')}${runtime?.status ? ` (${runtime.status})` : ''}`;
  return (
    <Tooltip title={label}>
      <span
        role="img"
        aria-label={label}
        data-level={level}
        style={{ fontSize: 20, color: on ? token.colorSuccess : token.colorTextDisabled }}
      >
        {on ? <CloudOutlined /> : <DisconnectOutlined />}
      </span>
    </Tooltip>
  );
}

/** The top bar: page title from the route, status icons, links and the user menu. */
export function TopBar({ collapsed, onToggleMenu }: TopBarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const user = useAuthUser();
  const mode = useSettings((s) => s.theme);
  const language = useSettings((s) => s.localization);
  const titleKey = titleKeyFor(pathname);
  const title = titleKey ? t(titleKey) : '';
  const brand = t('shell.brand');
  useEffect(() => {
    document.title = title ? `${title} · ${brand}` : brand;
  }, [title, brand]);

  const items: MenuProps['items'] = [
    ...(canEditProfile(user)
      ? [{ key: 'profile', icon: <UserOutlined />, label: t('shell.edit_profile') }]
      : []),
    {
      key: 'theme',
      icon: mode === 'dark' ? <SunOutlined /> : <MoonOutlined />,
      label: mode === 'dark' ? t('shell.light_theme') : t('shell.dark_theme'),
    },
    {
      key: 'language',
      label: t('common.language'),
      children: LANGUAGES.map((l) => ({
        key: `lang:${l}`,
        label: LANGUAGE_NAMES[l],
        disabled: l === language,
      })),
    },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('shell.logout'), danger: true },
  ];
  const onMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'profile') void navigate(EDIT_PROFILE_ROUTE);
    else if (key === 'theme') updateSettings({ theme: mode === 'dark' ? 'light' : 'dark' });
    else if (key.startsWith('lang:'))
      updateSettings({ localization: key.slice(5) as (typeof LANGUAGES)[number] });
    else if (key === 'logout') void signOut().then(() => navigate(LOGIN_ROUTE, { replace: true }));
  };

  return (
    <Flex align="center" gap={12} style={{ height: '100%' }}>
      <Button
        type="text"
        aria-label={collapsed ? t('shell.expand') : t('shell.collapse')}
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={onToggleMenu}
      />
      <Typography.Title level={4} style={{ margin: 0, flex: 1, minWidth: 0 }} ellipsis>
        {title}
      </Typography.Title>
      <ConnectionIcon />
      <Tooltip title={t('shell.dashboard')}>
        <Link to={DASHBOARD_PRECISION_ROUTE} aria-label={t('shell.dashboard')}>
          <DashboardOutlined style={{ fontSize: 18 }} />
        </Link>
      </Tooltip>
      {hasApplications(user) && (
        <Tooltip title={t('shell.applications')}>
          <Link to={APPLICATIONS_ROUTE} aria-label={t('shell.applications')}>
            <AppstoreOutlined style={{ fontSize: 18 }} />
          </Link>
        </Tooltip>
      )}
      <NotificationBell />
      <Dropdown menu={{ items, onClick: onMenu }} trigger={['click']} placement="bottomRight">
        <Button type="text" aria-label={user?.user} style={{ paddingInline: 4 }}>
          <Avatar size="small" src={user?.avatar} icon={<UserOutlined />} />
          <span
            className="topbar-user"
            style={{ maxWidth: 140, overflow: 'hidden', textOverflow: 'ellipsis' }}
          >
            {user?.user_name ?? user?.user}
          </span>
        </Button>
      </Dropdown>
    </Flex>
  );
}
