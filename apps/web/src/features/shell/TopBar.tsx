import {
  ApiOutlined,
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
  Grid,
  List,
  Popover,
  Tooltip,
  Typography,
  theme,
  type MenuProps,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { liveStore } from '../../api/live';
import { NOTIFICATIONS_KEPT, connectionLevel } from '../../api/liveRules';
import {
  APPLICATIONS_ROUTE,
  DASHBOARD_PRECISION_ROUTE,
  EDIT_PROFILE_ROUTE,
  LOGIN_ROUTE,
  titleFrameFor,
  titleKeyFor,
} from '../../app/routeTitles';
import { LANGUAGES, updateSettings, useSettings } from '../../app/settings';
import { useStore } from '../../app/store';
import { LANGUAGE_NAMES } from '../../i18n';
import { canEditProfile, hasApplications } from '../auth/rules';
import { INTEGRATION_TOKENS_ROUTE, canUseIntegrationTokens } from '../integration/routes';
import { signOut } from '../auth/signOut';
import { useAuthUser, useDeviceList } from '../auth/session';
import { selectDevice, useSelectedDevice } from '../devices/selection';
import { defaultRouteForType } from '../../app/routeMemory';
import { NOTIFICATION_HISTORY_ROUTE } from '../tools/routes';
import { formatInZone, installationZone } from '../telemetry/zone';
import { useLatestNotificationsQuery } from './notificationsApi';
import {
  mergeNotifications,
  notificationKind,
  notificationText,
  notificationTimeMs,
} from './notificationText';

interface TopBarProps {
  collapsed: boolean;
  onToggleMenu: () => void;
}

function NotificationBell() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const device = useSelectedDevice();
  const devices = useDeviceList();
  const live = useStore(liveStore, (s) => s.notifications);
  const stored = useLatestNotificationsQuery();
  const notifications = useMemo(
    () => mergeNotifications(live, stored.data ?? [], NOTIFICATIONS_KEPT),
    [live, stored.data],
  );
  // The link opens the device's view; choosing the device here makes that view show it.
  const showDevice = (mac: string) => {
    setOpen(false);
    selectDevice(mac);
  };
  const list = notifications.length ? (
    <List
      size="small"
      className="notification-list"
      style={{ width: 'min(340px, calc(100vw - 48px))' }}
      dataSource={notifications}
      renderItem={(n) => {
        const mac = n.mac ?? device?.mac;
        const target = mac ? devices.find((d) => d.mac === mac) : undefined;
        const timeMs = notificationTimeMs(n.data.timestamp);
        return (
          <List.Item>
            <List.Item.Meta
              title={
                <Flex gap={6} wrap>
                  <span>{notificationKind(t, n.type)}</span>
                  {target && (
                    <Link
                      to={defaultRouteForType(target.type)}
                      aria-label={t('shell.open_device', { title: target.title })}
                      onClick={() => showDevice(target.mac)}
                    >
                      {target.title}
                    </Link>
                  )}
                </Flex>
              }
              description={
                <>
                  {notificationText(t, n)}
                  {timeMs !== undefined && (
                    <div>
                      <Typography.Text type="secondary">
                        {formatInZone(timeMs, 'L LTS', installationZone())}
                      </Typography.Text>
                    </div>
                  )}
                </>
              }
            />
          </List.Item>
        );
      }}
    />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('shell.no_notifications')} />
  );
  const content = (
    <>
      {list}
      <Flex justify="end" style={{ marginTop: 8 }}>
        <Link to={NOTIFICATION_HISTORY_ROUTE} onClick={() => setOpen(false)}>
          {t('notification_history.all')}
        </Link>
      </Flex>
    </>
  );
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      title={t('shell.notifications')}
      content={content}
    >
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
  // Phones: the page title may take two or three lines rather than be cut, so that the quantity
  // shown is always named; the icons move closer and the user's name gives way to the avatar.
  const phone = Grid.useBreakpoint().sm === false;
  const titleKey = titleKeyFor(pathname);
  const frame = titleFrameFor(pathname);
  const name = titleKey ? t(titleKey) : '';
  const title = name && frame ? t(frame, { name }) : name;
  const brand = t('shell.brand');
  useEffect(() => {
    document.title = title ? `${title} · ${brand}` : brand;
  }, [title, brand]);

  const items: MenuProps['items'] = [
    ...(canEditProfile(user)
      ? [{ key: 'profile', icon: <UserOutlined />, label: t('shell.edit_profile') }]
      : []),
    ...(canUseIntegrationTokens(user)
      ? [{ key: 'integration', icon: <ApiOutlined />, label: t('integration.title') }]
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
    else if (key === 'integration') void navigate(INTEGRATION_TOKENS_ROUTE);
    else if (key === 'theme') updateSettings({ theme: mode === 'dark' ? 'light' : 'dark' });
    else if (key.startsWith('lang:'))
      updateSettings({ localization: key.slice(5) as (typeof LANGUAGES)[number] });
    else if (key === 'logout') void signOut().then(() => navigate(LOGIN_ROUTE, { replace: true }));
  };

  return (
    <Flex align="center" gap={phone ? 6 : 12} style={{ height: '100%' }}>
      <Button
        type="text"
        aria-label={collapsed ? t('shell.expand') : t('shell.collapse')}
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={onToggleMenu}
      />
      {phone ? (
        <Typography.Title level={4} className="topbar-title topbar-title--phone">
          {title}
        </Typography.Title>
      ) : (
        <Typography.Title level={4} className="topbar-title" ellipsis={{ tooltip: title }}>
          {title}
        </Typography.Title>
      )}
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
          {!phone && (
            <span
              className="topbar-user"
              style={{ maxWidth: 140, overflow: 'hidden', textOverflow: 'ellipsis' }}
            >
              {user?.user_name ?? user?.user}
            </span>
          )}
        </Button>
      </Dropdown>
    </Flex>
  );
}
