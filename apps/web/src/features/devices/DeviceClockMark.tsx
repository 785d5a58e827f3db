import type { DeviceListEntry } from '@meterportal/protocol';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFixed } from '../../i18n/format';
import { useDeviceClockQuery } from './api';
import { clockSkewMark } from './clockSkew';

/**
 * A warning while the meter's clock is so far off that its frames are refused: which way, by how
 * much, and that its data waits until the clock is set right. Nothing while the clock is right.
 */
export function DeviceClockMark({ device }: { device: DeviceListEntry }) {
  const { t } = useTranslation();
  const clock = useDeviceClockQuery(device.token);
  const mark = clockSkewMark(clock.data?.skewSec);
  if (!mark) return null;
  const value = t(`hierarchy.clock_units.${mark.unit}`, { amount: formatFixed(mark.amount, 0) });
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="device-clock-mark"
      style={{ marginBottom: 12 }}
      message={t(mark.direction === 'ahead' ? 'hierarchy.clock_ahead' : 'hierarchy.clock_behind', { value })}
      description={t('hierarchy.clock_refused')}
    />
  );
}
