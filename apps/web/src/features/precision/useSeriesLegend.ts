import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { settingsStore, updateSettings, useSettings } from '../../app/settings';
import { SERIES_KEYS, type SeriesKey } from './series';

/**
 * Names of the six series in the current language and their remembered legend visibility (the
 * settings' ap_charts map); `onChange` takes ECharts' visibility map keyed by series name.
 */
export function useSeriesLegend(): {
  names: Record<SeriesKey, string>;
  selected: Record<SeriesKey, boolean>;
  onChange: (byName: Record<string, boolean>) => void;
} {
  const { t } = useTranslation();
  const selected = useSettings((s) => s.ap_charts);
  const names = useMemo(
    () =>
      Object.fromEntries(SERIES_KEYS.map((k) => [k, t(`precision.series.${k}`)])) as Record<
        SeriesKey,
        string
      >,
    [t],
  );
  const onChange = (byName: Record<string, boolean>) => {
    const next = { ...settingsStore.get().ap_charts };
    for (const k of SERIES_KEYS) {
      const v = byName[names[k]];
      if (typeof v === 'boolean') next[k] = v;
    }
    updateSettings({ ap_charts: next });
  };
  return { names, selected, onChange };
}
