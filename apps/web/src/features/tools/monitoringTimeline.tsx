import { Flex, Grid, Spin, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatInZone } from '../telemetry/zone';
import { STATE_COLORS, type AxisTick, type CellState, type TimelineCell } from './monitoringRules';

/** Translation keys of the cell states, also the legend's order. */
const STATE_LABELS: Record<CellState, 'tools.online' | 'tools.partial' | 'tools.offline' | 'tools.no_data'> =
  {
    online: 'tools.online',
    partial: 'tools.partial',
    offline: 'tools.offline',
    none: 'tools.no_data',
  };

/** What the timeline's colours mean. */
export function TimelineLegend() {
  const { t } = useTranslation();
  return (
    <Flex gap={16} wrap className="state-timeline__legend" data-testid="timeline-legend">
      {(Object.keys(STATE_LABELS) as CellState[]).map((s) => (
        <Flex key={s} gap={6} align="center">
          <span
            aria-hidden
            style={{
              width: 14,
              height: 14,
              borderRadius: 3,
              background: STATE_COLORS[s],
              display: 'inline-block',
            }}
          />
          <Typography.Text>{t(STATE_LABELS[s])}</Typography.Text>
        </Flex>
      ))}
    </Flex>
  );
}

interface TimelineRowProps {
  label: string;
  cells: readonly TimelineCell[];
  tz: string;
  loading?: boolean;
  /** The highlighted cell (the slot whose minutes are shown). */
  selectedMs?: number | null;
  onCellClick?: (cell: TimelineCell) => void;
}

/** One device's states along the span, each cell as wide as the time it stands for. */
export function TimelineRow({ label, cells, tz, loading, selectedMs, onCellClick }: TimelineRowProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const mobile = Grid.useBreakpoint().md === false;
  const total = cells.reduce((s, c) => s + c.spanSec, 0) || 1;
  const describe = (c: TimelineCell) => {
    const from = formatInZone(c.startMs, 'HH:mm', tz);
    const to = formatInZone(c.startMs + c.spanSec * 1000, 'HH:mm', tz);
    const extra = c.state === 'partial' ? ` · ${t('tools.offline_seconds', { seconds: c.offlineSec })}` : '';
    return `${from} – ${to}: ${t(STATE_LABELS[c.state])}${extra}`;
  };
  return (
    <Flex
      className="state-timeline__row"
      data-testid="timeline-row"
      data-label={label}
      gap={mobile ? 4 : 12}
      vertical={mobile}
      align={mobile ? 'stretch' : 'center'}
    >
      <Typography.Text ellipsis={{ tooltip: label }} style={{ width: mobile ? '100%' : 160, flex: 'none' }}>
        {label}
      </Typography.Text>
      <div
        style={{
          position: 'relative',
          display: 'flex',
          // Beside the label the track takes the rest of the row; under it (phones) the full width.
          flex: mobile ? 'none' : 1,
          width: mobile ? '100%' : undefined,
          height: 28,
          borderRadius: 4,
          overflow: 'hidden',
          border: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        {cells.map((c) => {
          const text = describe(c);
          const selected = selectedMs === c.startMs;
          return (
            <div
              key={c.startMs}
              role={onCellClick ? 'button' : undefined}
              tabIndex={onCellClick ? 0 : undefined}
              className="state-timeline__cell"
              data-state={c.state}
              data-start={c.startMs}
              title={text}
              aria-label={text}
              onClick={onCellClick ? () => onCellClick(c) : undefined}
              onKeyDown={
                onCellClick ? (e) => (e.key === 'Enter' || e.key === ' ') && onCellClick(c) : undefined
              }
              style={{
                width: `${(c.spanSec / total) * 100}%`,
                background: STATE_COLORS[c.state],
                borderRight: '1px solid rgba(255, 255, 255, 0.35)',
                cursor: onCellClick ? 'pointer' : 'default',
                outline: selected ? `2px solid ${token.colorPrimary}` : undefined,
                outlineOffset: -2,
              }}
            />
          );
        })}
        {loading && (
          <div style={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
            <Spin size="small" />
          </div>
        )}
      </div>
    </Flex>
  );
}

/** The time axis under the rows: hours of the installation's day, or minutes of a slot. */
export function TimelineAxis({ ticks }: { ticks: readonly AxisTick[] }) {
  const { token } = theme.useToken();
  const mobile = Grid.useBreakpoint().md === false;
  return (
    <Flex gap={12}>
      {!mobile && <span style={{ width: 160, flex: 'none' }} />}
      <div
        className="state-timeline__axis"
        aria-hidden
        style={{ position: 'relative', flex: 1, height: 20, color: token.colorTextSecondary, fontSize: 12 }}
      >
        {ticks.map((tk, i) => (
          <span
            key={`${tk.at}-${i}`}
            style={{
              position: 'absolute',
              left: `${tk.at * 100}%`,
              transform: tk.at === 0 ? 'none' : tk.at === 1 ? 'translateX(-100%)' : 'translateX(-50%)',
              whiteSpace: 'nowrap',
            }}
          >
            {tk.label}
          </span>
        ))}
      </div>
    </Flex>
  );
}
