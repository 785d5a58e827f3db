import {
  AimOutlined,
  AlertOutlined,
  AppstoreOutlined,
  BulbOutlined,
  ApiOutlined,
  BarChartOutlined,
  CloudUploadOutlined,
  RadarChartOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  EnvironmentOutlined,
  EuroOutlined,
  ExperimentOutlined,
  FieldTimeOutlined,
  FilePdfOutlined,
  FundOutlined,
  HistoryOutlined,
  LineChartOutlined,
  NotificationOutlined,
  PictureOutlined,
  PlusOutlined,
  RiseOutlined,
  SettingOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { Application, DeviceType, typeHasEnergy } from '@meterportal/protocol';
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
  deviceHasView,
  viewUrl,
  type View,
} from '../telemetry/views';
import { COST_ROUTE, PEAKS_ROUTE, TARIFF_ROUTE } from '../costs/routes';
import { REPORTS_ROUTE } from '../reports/routes';
import {
  ALARMS_ROUTE,
  MONITORING_ROUTE,
  NOTIFICATION_HISTORY_ROUTE,
  NOTIFICATIONS_ROUTE,
} from '../tools/routes';
import { REGISTRATION_ROUTE, USER_MANAGER_ROUTE } from '../usermanager/routes';
import { FIRMWARE_ROUTE, RELAY_ROUTE, ownedDisconnectors, upgradableDevices } from '../firmware/routes';
import { SETTINGS_ROUTE, settingsDevices } from '../settings/routes';
import { ANOMALIES_ROUTE, ownedHouseholdMeters } from '../anomalies/routes';
import { useDeviceList } from '../auth/session';
import { APPLIANCES_ROUTE, hasAppliances } from '../appliances/routes';
import { SITE_MAPS_ROUTE, SITES_ROUTE } from '../sitemaps/routes';

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
  'power-quality': <SafetyCertificateOutlined />,
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
  const selected = useSelectedDevice();
  const deviceType = selected?.type;
  const measured = (v: View) => selected === undefined || deviceHasView(selected, v);
  const analyzer = deviceType === DeviceType.Precision;
  // Cost and peaks need import energy; only the device's owner edits its tariff.
  const costs: Item[] =
    selected && typeHasEnergy(selected.type, 'E_I')
      ? [
          {
            key: 'costs',
            icon: <EuroOutlined />,
            label: t('costs.menu'),
            children: [
              { key: COST_ROUTE, label: t('costs.menu_cost') },
              { key: PEAKS_ROUTE, label: t('costs.menu_peaks') },
              ...(selected.owner ? [{ key: TARIFF_ROUTE, label: t('costs.menu_tariff') }] : []),
            ],
          },
        ]
      : [];
  // Relay control for owners of a disconnector; firmware for owners, and managers who register versions.
  const deviceList = useDeviceList();
  const management: Item[] = [
    ...(ownedDisconnectors(deviceList).length > 0
      ? [{ key: RELAY_ROUTE, icon: <ApiOutlined />, label: t('relay.menu') }]
      : []),
    ...(upgradableDevices(deviceList).length > 0 || userManager
      ? [{ key: FIRMWARE_ROUTE, icon: <CloudUploadOutlined />, label: t('firmware.menu') }]
      : []),
    ...(settingsDevices(deviceList).length > 0
      ? [{ key: SETTINGS_ROUTE, icon: <SettingOutlined />, label: t('settings.menu') }]
      : []),
    ...(ownedHouseholdMeters(deviceList).length > 0
      ? [{ key: ANOMALIES_ROUTE, icon: <RadarChartOutlined />, label: t('anomalies.menu') }]
      : []),
  ];

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
        ...costs,
        // The appliances a household meter learned, for its owner.
        ...(hasAppliances(selected)
          ? [{ key: APPLIANCES_ROUTE, icon: <BulbOutlined />, label: t('appliances.menu') }]
          : []),
      ],
    },
    {
      type: 'group',
      key: 'tools-group',
      label: collapsed ? null : t('menu.tools'),
      children: [
        { key: MONITORING_ROUTE, icon: <FieldTimeOutlined />, label: t('menu.monitoring') },
        { key: NOTIFICATIONS_ROUTE, icon: <NotificationOutlined />, label: t('menu.paired_notifications') },
        {
          key: NOTIFICATION_HISTORY_ROUTE,
          icon: <HistoryOutlined />,
          label: t('notification_history.title'),
        },
        { key: ALARMS_ROUTE, icon: <AlertOutlined />, label: t('alarms.menu') },
        { key: SITE_MAPS_ROUTE, icon: <PictureOutlined />, label: t('sitemaps.menu') },
        { key: SITES_ROUTE, icon: <EnvironmentOutlined />, label: t('sitemaps.sites_menu') },
        { key: REPORTS_ROUTE, icon: <FilePdfOutlined />, label: t('reports.menu') },
      ],
    },
    ...(management.length > 0
      ? [
          {
            type: 'group' as const,
            key: 'management-group',
            label: collapsed ? null : t('relay.group'),
            children: management,
          },
        ]
      : []),
    // The server checks the right again; the link only shows to holders (seed 001 section 6).
    ...(userManager
      ? [
          {
            type: 'group' as const,
            key: 'applications-group',
            label: collapsed ? null : t('shell.applications'),
            children: [
              { key: USER_MANAGER_ROUTE, icon: <TeamOutlined />, label: t('menu.user_manager') },
              { key: REGISTRATION_ROUTE, icon: <ApiOutlined />, label: t('registration.menu') },
            ],
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
      defaultOpenKeys={
        area
          ? [area]
          : pathname.startsWith('/visualization')
            ? ['realtime']
            : pathname.startsWith('/costs')
              ? ['costs']
              : []
      }
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
