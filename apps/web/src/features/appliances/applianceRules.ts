import type { PowerEdge, TeachOutcome } from '@meterportal/protocol';
import { formatFixed, formatNumber, withUnit } from '../../i18n/format';

/** Translation key of the message for a teaching that stored nothing (the seed's edge messages). */
export function edgeMessageKey(outcome: Exclude<TeachOutcome, 'LEARNED'>) {
  switch (outcome) {
    case 'MORE_THAN_2':
      return 'appliances.edges_more' as const;
    case 'LESS_THAN_2':
      return 'appliances.edges_less' as const;
    case 'NO_EDGE':
      return 'appliances.edges_none' as const;
  }
}

/** An edge as shown: signed watts, e.g. "+2 000 W" / "−2 000 W" in the language's grouping. */
export function formatEdge(e: PowerEdge, lng: string): string {
  return `${e.deltaW >= 0 ? '+' : '−'}${withUnit(formatNumber(Math.abs(e.deltaW), 0, lng), 'W')}`;
}

/** NILM energy as the seed shows it: Wh with one decimal. */
export function formatWh(wh: number, lng: string): string {
  return withUnit(formatFixed(wh, 1, lng), 'Wh');
}

/** A running time as hours, minutes and seconds: "1 h 05 min", "4 min 10 s", "40 s". */
export function formatRuntime(totalSec: number): string {
  const s = Math.round(totalSec);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(sec).padStart(2, '0')} s`;
  return `${sec} s`;
}
