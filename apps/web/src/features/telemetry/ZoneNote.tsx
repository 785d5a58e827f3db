import { ClockCircleOutlined } from '@ant-design/icons';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { browserZone, installationZone } from './zone';

/**
 * Names the installation's time zone beside a chart when the browser runs in another one: every
 * range, axis and table time is then in the installation's zone, not the clock on the wall.
 */
export function ZoneNote() {
  const { t } = useTranslation();
  const tz = installationZone();
  if (tz === browserZone()) return null;
  return (
    <Tooltip title={t('chart.zone_hint', { zone: tz })}>
      <Tag icon={<ClockCircleOutlined />} className="zone-note" data-testid="zone-note">
        {t('chart.zone', { zone: tz })}
      </Tag>
    </Tooltip>
  );
}
