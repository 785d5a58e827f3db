import { Alert } from 'antd';
import { useEffect, useState } from 'react';
import { phasesInUse } from '@meterportal/protocol';
import { useTranslation } from 'react-i18next';
import { subscribeData } from '../../api/live';
import { snackbar } from '../../api/notify';
import { pushWindow, type Point } from '../../charts/series';
import { useSelectedDevice } from '../devices/selection';
import type { PhaseKey } from './chartState';
import { liveQuantityAbsent, randomSample, readLiveSample, type Phase } from './liveValues';
import { PhaseChart } from './PhaseChart';
import type { Quantity, RealtimeView } from './views';

/** Quantities whose phases add up; the others only get an average. */
const ADDITIVE: ReadonlySet<Quantity> = new Set(['I', 'P', 'Q', 'S', 'E_I', 'E_E', 'Q_E', 'S_E']);

interface RealtimeChartProps {
  view: RealtimeView;
}

/** Live values of one quantity: a 20-point sliding window fed by the app's websocket. */
export function RealtimeChart({ view }: RealtimeChartProps) {
  const { t } = useTranslation();
  const device = useSelectedDevice();
  const token = device?.token;
  const mac = device?.mac;
  // A single-phase type (the plug, the disconnector) shows its one phase.
  const phaseCount = device ? phasesInUse(device.type, device.phase_use) : 3;
  const [series, setSeries] = useState<Partial<Record<PhaseKey, Point[]>>>({});

  // Another device or view starts an empty window. A renewed token of the same device only
  // renews the subscription: the window (and a data table open under the chart) stays.
  useEffect(() => {
    setSeries({});
  }, [mac, view]);

  useEffect(() => {
    if (!token) return;
    let warned = false;
    return subscribeData(token, (msg) => {
      if (msg.topic !== 'Data') return;
      const sample = view.random
        ? randomSample(
            ((msg.data as { ts?: number } | undefined)?.ts ?? Date.now() / 1000) * 1000,
            phaseCount,
          )
        : readLiveSample(msg, view.quantity, view.divisor, phaseCount);
      if (!sample) {
        // A frame that marks the quantity as not measured is no fault; the chart stays empty.
        if (liveQuantityAbsent(msg, view.quantity, phaseCount)) return;
        // Said once per view: a device sending frames without this quantity would otherwise flood.
        if (!warned) snackbar('error', t('common.api_communication_error'));
        warned = true;
        return;
      }
      setSeries((prev) => {
        const next = { ...prev };
        const entries = Object.entries(sample.values) as [Phase, number][];
        for (const [p, v] of entries) next[p] = pushWindow(prev[p] ?? [], [sample.tsMs, v]);
        if (entries.length > 1) {
          const sum = entries.reduce((a, [, v]) => a + v, 0);
          if (ADDITIVE.has(view.quantity)) next.SUM = pushWindow(prev.SUM ?? [], [sample.tsMs, sum]);
          next.AVG = pushWindow(prev.AVG ?? [], [sample.tsMs, sum / entries.length]);
        }
        return next;
      });
    });
  }, [token, view, phaseCount, t]);

  const hasData = Object.keys(series).length > 0;
  return (
    <>
      {view.random && (
        <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('chart.random_values')} />
      )}
      <PhaseChart
        title={t(`menu.${view.title}`)}
        fileName={`${view.path.replace(/\//g, '-')}`}
        unit={view.unit}
        quantity={view.quantity}
        kind="line"
        series={series}
        live
        {...(hasData ? {} : { emptyText: t('chart.waiting_live') })}
      />
    </>
  );
}
