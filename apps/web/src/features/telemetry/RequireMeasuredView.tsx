import { Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { useSelectedDevice } from '../devices/selection';
import { defaultViewUrl, deviceHasView, type View } from './views';

interface RequireMeasuredViewProps {
  view: View;
  children: ReactNode;
}

/**
 * A chart view needs a selected device that measures its quantity. Every metering type has its
 * views, and a meter the portal adapts only those of what it reports; a path to one the device
 * lacks (typed or remembered) opens the type's default view instead of a chart of zeros.
 */
export function RequireMeasuredView({ view, children }: RequireMeasuredViewProps) {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  if (!device) return <Result status="info" title={t('shell.any_assigned_devices')} />;
  if (!deviceHasView(device, view)) return <Navigate to={defaultViewUrl(device.type)} replace />;
  return <>{children}</>;
}
