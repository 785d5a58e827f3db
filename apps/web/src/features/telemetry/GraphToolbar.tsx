import { ApartmentOutlined } from '@ant-design/icons';
import { DataSource, type DataSourceId } from '@meterportal/protocol';
import { Button, Drawer, Flex, Select, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { settingsStore, updateSettings, useSettings } from '../../app/settings';
import { HierarchyPanel } from '../devices/HierarchyPanel';
import { useSelectedDevice } from '../devices/selection';
import { DateRangeMenu } from './DateRangeMenu';
import { resolveRange, type DateRange, type Granularity } from './dateRanges';
import { ZoneNote } from './ZoneNote';
import { installationZone } from './zone';

interface GraphToolbarProps {
  /** Without a granularity the toolbar has no date menu (real-time views). */
  granularity?: Granularity;
  showSource?: boolean;
}

/** The range for a granularity: the stored one, with presets recomputed for today. */
export function useRange(granularity: Granularity): [DateRange, (r: DateRange) => void] {
  const stored = useSettings((s) => s.ranges[granularity]);
  const range = resolveRange(stored, granularity, new Date(), installationZone());
  const set = (r: DateRange) =>
    updateSettings({ ranges: { ...settingsStore.get().ranges, [granularity]: r } });
  return [range, set];
}

/** Data source in use: LoRa only for LoRa-capable devices, otherwise it falls back to WiFi. */
export function useDataSource(): DataSourceId {
  const device = useSelectedDevice();
  const source = useSettings((s) => s.dataSource);
  const loraCapable = device?.lora === true;
  useEffect(() => {
    if (source === DataSource.LoRa && device && !loraCapable) updateSettings({ dataSource: DataSource.WiFi });
  }, [source, device, loraCapable]);
  return source === DataSource.LoRa && !loraCapable ? DataSource.WiFi : source;
}

/** Device picker (the hierarchy), date range and data source of every chart view. */
export function GraphToolbar({ granularity, showSource = true }: GraphToolbarProps) {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  const [open, setOpen] = useState(false);
  const source = useDataSource();

  return (
    <Flex className="graph-toolbar" gap={8} wrap align="center" style={{ marginBottom: 12 }}>
      <Tooltip title={t('toolbar.device')}>
        <Button icon={<ApartmentOutlined />} onClick={() => setOpen(true)} aria-label={t('toolbar.device')}>
          {device?.title ?? t('shell.any_assigned_devices')}
        </Button>
      </Tooltip>
      {granularity && <RangeControl granularity={granularity} />}
      <ZoneNote />
      {showSource && (
        <Select<DataSourceId>
          aria-label={t('toolbar.data_source')}
          value={source}
          style={{ width: 120 }}
          onChange={(v) => updateSettings({ dataSource: v })}
          options={[
            { value: DataSource.WiFi, label: t('toolbar.wifi') },
            { value: DataSource.LoRa, label: t('toolbar.lora'), disabled: device?.lora !== true },
          ]}
        />
      )}
      <Drawer
        title={t('hierarchy.title')}
        placement="left"
        open={open}
        onClose={() => setOpen(false)}
        size={360}
      >
        <HierarchyPanel onDeviceSelected={() => setOpen(false)} />
      </Drawer>
    </Flex>
  );
}

function RangeControl({ granularity }: { granularity: Granularity }) {
  const [range, setRange] = useRange(granularity);
  return <DateRangeMenu granularity={granularity} value={range} onChange={setRange} />;
}
