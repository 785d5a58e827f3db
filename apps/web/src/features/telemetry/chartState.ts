import { useState } from 'react';
import {
  updateSettings,
  useSettings,
  settingsStore,
  type PhaseVisibility,
  type YAxisType,
} from '../../app/settings';

/** Legend keys of phase series and their translation keys for SUM and AVG. */
export type PhaseKey = 'L1' | 'L2' | 'L3' | 'SUM' | 'AVG';

/** Phase visibility, remembered in the settings. */
export function usePhaseVisibility(): [PhaseVisibility, (key: PhaseKey, visible: boolean) => void] {
  const phases = useSettings((s) => s.phases);
  const set = (key: PhaseKey, visible: boolean) =>
    updateSettings({ phases: { ...settingsStore.get().phases, [key]: visible } });
  return [phases, set];
}

/** Y-axis type, remembered; a view may insist on starting logarithmic. */
export function useYAxisType(startLogarithmic = false): [YAxisType, (t: YAxisType) => void] {
  const remembered = useSettings((s) => s.yAxisType);
  const [local, setLocal] = useState<YAxisType | null>(startLogarithmic ? 'logarithmic' : null);
  const set = (t: YAxisType) => {
    setLocal(t);
    updateSettings({ yAxisType: t });
  };
  return [local ?? remembered, set];
}
