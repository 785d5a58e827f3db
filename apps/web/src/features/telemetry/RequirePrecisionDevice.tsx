import { DeviceType } from '@meterportal/protocol';
import { Card, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { HierarchyPanel } from '../devices/HierarchyPanel';
import { useSelectedDevice } from '../devices/selection';

interface RequirePrecisionDeviceProps {
  children: ReactNode;
}

/**
 * The applied-precision area needs a selected device of the precision type. Rather than bouncing
 * between routes, it says so and offers the hierarchy to pick one right here.
 */
export function RequirePrecisionDevice({ children }: RequirePrecisionDeviceProps) {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  if (device?.type === DeviceType.Precision) return <>{children}</>;
  return (
    <>
      {device ? (
        <Result
          status="info"
          title={t('shell.precision_required_title')}
          subTitle={t('shell.precision_required_text')}
        />
      ) : (
        <Result status="info" title={t('shell.any_assigned_devices')} />
      )}
      {device && (
        <Card title={t('hierarchy.title')} style={{ maxWidth: 480, margin: '0 auto' }}>
          <HierarchyPanel />
        </Card>
      )}
    </>
  );
}
