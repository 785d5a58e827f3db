import {
  AimOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  ExperimentOutlined,
  FieldTimeOutlined,
  FundOutlined,
  LineChartOutlined,
  NotificationOutlined,
  PlusOutlined,
  RiseOutlined,
  TeamOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { Application, DeviceType } from '@meterportal/protocol';
import { Menu, theme, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useAuthUser } from '../auth/session';
import { menuKeyFor } from '../../app/routeTitles';
import { PRECISION_SCREENS, precisionUrl, type PrecisionPath } from '../precision/routes';
import { useSelectedDevice } from '../devices/selection';
import {
  ENERGY_VIEWS,
  PROFILE_VIEWS,
  REALTIME_VIEWS,
  typeHasView,
  viewUrl,
  type View,
} from '../telemetry/views';
import { MONITORING_ROUTE, NOTIFICATIONS_ROUTE } from '../tools/routes';
import { USER_MANAGER_ROUTE } from '../usermanager/routes';

interface SideMenuProps {
  collapsed: boolean;
  /** Called after a navigation, so the mobile drawer can close. */
  onNavigate?: () => void;
}

type Item = Required<MenuProps>['items'][number];

const PRECISION_ICONS: Record<PrecisionPath, ReactNode> = {
  dashboard: <AppstoreOutlined />,
  vector: <AimOutlined />,
  harmonics: <FundOutlined />,
  waveform: <RiseOutlined />,
  meters: <DatabaseOutlined />,
  'meter/add': <PlusOutlined />,
  'meter/tests/:meter_id': <ExperimentOutlined />,
};

/** The sidebar: the applied-precision screens, the Measurements group with the visualization menus, tools. */
export function SideMenu({ collapsed, onNavigate }: SideMenuProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const userManager = useAuthUser()?.applications.includes(Application.UserManager) === true;
  // The menus offer what the selected device measures; the applied-precision area is an analyzer's.
  const deviceType = useSelectedDevice()?.type;
  const measured = (v: View) => deviceType === undefined || typeHasView(deviceType, v);
  const analyzer = deviceType === DeviceType.Precision;

  const leaf = (v: View): Item => ({ key: viewUrl(v), label: t(`menu.${v.title}`) });
  const precision: Item[] = analyzer
    ? [
        {
          type: 'group',
          key: 'precision-group',
          label: collapsed ? null : t('menu.applied_precision'),
          children: PRECISION_SCREENS.filter((s) => s.menu).map((s) => ({
            key: precisionUrl(s.path),
            icon: PRECISION_ICONS[s.path],
            label: t(s.title),
          })),
        },
      ]
    : [];
  const items: Item[] = [
    ...precision,
    {
      type: 'group',
      key: 'measurements',
      label: collapsed ? null : t('shell.measurements'),
      children: [
        {
          key: 'realtime',
          icon: <DashboardOutlined />,
          label: t('menu.realtime'),
          children: REALTIME_VIEWS.filter((v) => !v.hidden && measured(v)).map(leaf),
        },
        {
          key: 'profile',
          icon: <LineChartOutlined />,
          label: t('menu.profiles'),
          children: PROFILE_VIEWS.filter(measured).map(leaf),
        },
        {
          key: 'energy',
          icon: <BarChartOutlined />,
          label: t('menu.energy'),
          children: ENERGY_VIEWS.filter(measured).map(leaf),
        },
      ],
    },
    {
      type: 'group',
      key: 'tools-group',
      label: collapsed ? null : t('menu.tools'),
      children: [
        { key: MONITORING_ROUTE, icon: <FieldTimeOutlined />, label: t('menu.monitoring') },
        { key: NOTIFICATIONS_ROUTE, icon: <NotificationOutlined />, label: t('menu.paired_notifications') },
      ],
    },
    // The server checks the right again; the link only shows to holders (seed 001 section 6).
    ...(userManager
      ? [
          {
            type: 'group' as const,
            key: 'applications-group',
            label: collapsed ? null : t('shell.applications'),
            children: [{ key: USER_MANAGER_ROUTE, icon: <TeamOutlined />, label: t('menu.user_manager') }],
          },
        ]
      : []),
  ];

  const area = /^\/visualization\/(realtime|profile|energy)\//.exec(pathname)?.[1];
  return (
    <Menu
      mode="inline"
      inlineCollapsed={collapsed}
      selectedKeys={[menuKeyFor(pathname)]}
      defaultOpenKeys={area ? [area] : pathname.startsWith('/visualization') ? ['realtime'] : []}
      items={items}
      onClick={({ key }) => {
        void navigate(key);
        onNavigate?.();
      }}
      style={{ borderInlineEnd: 'none' }}
    />
  );
}

export function BrandMark({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div
      style={{
        // The dark sider does not pass its text colour down to plain elements.
        color: token.colorText,
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        padding: '16px 20px',
        fontWeight: 600,
        fontSize: 16,
      }}
    >
      <ThunderboltOutlined style={{ fontSize: 20, color: '#1668dc' }} />
      {!collapsed && <span>{t('shell.brand')}</span>}
    </div>
  );
}
