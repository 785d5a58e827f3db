import { SettingOutlined, TableOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Form, Popover, Radio, Select, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { settingsStore, updateSettings, useSettings } from '../../app/settings';
import { EChart } from '../../charts/EChart';
import { format3 } from '../../charts/series';
import { formatAngle } from '../../i18n/format';
import { useSelectedDevice } from '../devices/selection';
import { vectorOption } from './chartOptions';
import { VECTOR_PERMISSION_LEVEL, vectorFeatures } from './permissions';
import { ZERO_POSITIONS, readPhasors, type Phasor, type ZeroPosition } from './phasors';
import { seriesParts } from './series';
import { useLiveData } from './useLiveData';
import { useSeriesLegend } from './useSeriesLegend';

const FEATURES = vectorFeatures(VECTOR_PERMISSION_LEVEL);

/** Phasor diagram of the selected device's voltages and currents, from its live frames. */
export function VectorPage() {
  const device = useSelectedDevice();
  return <VectorDiagram key={device?.mac ?? ''} />;
}

function VectorDiagram() {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  const dark = useSettings((s) => s.theme) === 'dark';
  const { zeroPosition, clockWiseDirection } = useSettings((s) => s.vector);
  const legend = useSeriesLegend();
  const [phasors, setPhasors] = useState<Phasor[] | null>(null);
  const [showTable, setShowTable] = useState(false);

  useLiveData(device, (msg) => {
    const next = readPhasors(msg);
    // The last good picture stays; one toast (by key) however many frames lack the fields.
    if (next) setPhasors(next);
    else toast('error', t('precision.vector_fields_missing'), undefined, 'vector-fields-missing');
  });

  const { names, selected } = legend;
  const option = useMemo(
    () =>
      phasors
        ? vectorOption({
            phasors,
            legend: { names, selected, show: FEATURES.legend },
            zeroPosition,
            clockwise: clockWiseDirection,
          })
        : null,
    [phasors, names, selected, zeroPosition, clockWiseDirection],
  );

  return (
    <Card
      className="chart-card vector-card"
      title={t('menu.vector_diagram')}
      extra={
        <Flex gap={8} wrap align="center">
          <Button
            size="small"
            icon={<TableOutlined />}
            aria-pressed={showTable}
            disabled={!phasors}
            onClick={() => setShowTable((v) => !v)}
          >
            {showTable ? t('precision.hide_table') : t('precision.show_table')}
          </Button>
          {FEATURES.settings && <VectorSettingsMenu />}
        </Flex>
      }
    >
      {option ? (
        <EChart
          option={option}
          dark={dark}
          onLegendChange={legend.onChange}
          className="chart-box vector-box"
        />
      ) : (
        <div className="chart-box vector-box" style={{ display: 'grid', placeItems: 'center' }}>
          <Empty description={t('chart.waiting_live')} />
        </div>
      )}
      {showTable && phasors && <PhasorTable phasors={phasors} names={legend.names} />}
    </Card>
  );
}

function PhasorTable({ phasors, names }: { phasors: Phasor[]; names: Record<Phasor['key'], string> }) {
  const { t } = useTranslation();
  return (
    <Table<Phasor>
      data-testid="phasor-table"
      size="small"
      style={{ marginTop: 16 }}
      rowKey="key"
      pagination={false}
      dataSource={phasors}
      columns={[
        { key: 'series', title: t('precision.series_name'), render: (_v, p) => names[p.key] },
        {
          key: 'magnitude',
          title: t('precision.magnitude'),
          align: 'right',
          render: (_v, p) => `${format3(p.magnitude)} ${seriesParts(p.key).kind === 'U' ? 'V' : 'A'}`,
        },
        {
          key: 'angle',
          title: t('precision.angle'),
          align: 'right',
          render: (_v, p) => formatAngle(p.angleDeg, 3),
        },
      ]}
    />
  );
}

/** Zero position and rotation direction, each editable from its permission level; remembered. */
function VectorSettingsMenu() {
  const { t } = useTranslation();
  const vector = useSettings((s) => s.vector);
  const set = (patch: Partial<typeof vector>) =>
    updateSettings({ vector: { ...settingsStore.get().vector, ...patch } });
  const content = (
    <Form layout="vertical" style={{ width: 260 }} requiredMark={false}>
      <Form.Item label={t('precision.zero_position')} htmlFor="vector-zero" style={{ marginBottom: 12 }}>
        <Select<ZeroPosition>
          id="vector-zero"
          aria-label={t('precision.zero_position')}
          value={vector.zeroPosition}
          disabled={!FEATURES.zeroPosition}
          onChange={(zeroPosition) => set({ zeroPosition })}
          options={ZERO_POSITIONS.map((z) => ({ value: z, label: `${z}°` }))}
        />
      </Form.Item>
      <Form.Item label={t('precision.rotation_direction')} style={{ marginBottom: 0 }}>
        <Radio.Group
          aria-label={t('precision.rotation_direction')}
          value={vector.clockWiseDirection}
          disabled={!FEATURES.direction}
          onChange={(e) => set({ clockWiseDirection: e.target.value as boolean })}
          options={[
            { value: true, label: t('precision.clockwise') },
            { value: false, label: t('precision.counter_clockwise') },
          ]}
        />
      </Form.Item>
    </Form>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title={t('precision.settings')} content={content}>
      <Button size="small" icon={<SettingOutlined />}>
        {t('precision.settings')}
      </Button>
    </Popover>
  );
}
