import type { DeviceListEntry, SitePin } from '@meterportal/protocol';
import { Alert, Button, Flex, Input, Typography } from 'antd';
import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fractionIn } from './siteRules';

/** Pin colours by live state. */
export const PIN_COLORS: Record<SitePin['state'], string> = {
  ONLINE: '#52c41a',
  OFFLINE: '#8c8c8c',
  ALARM: '#ff4d4f',
};

/** A drag in progress: of a device from the list or of a pin already on the plan. */
interface Drag {
  mac: string;
  title: string;
  fromPin: boolean;
  startX: number;
  startY: number;
  x: number;
  y: number;
  moved: boolean;
}

interface PlanBoardProps {
  imageUrl: string;
  mapName: string;
  pins: SitePin[];
  /** Assigned devices not yet on this map. */
  unplaced: DeviceListEntry[];
  group: string;
  onGroupChange: (group: string) => void;
  onPlace: (mac: string, x: number, y: number) => void;
  onOpen: (pin: SitePin) => void;
}

/** A drag becomes a move once the pointer travelled this far; less is a tap. */
const TAP_PX = 5;

/**
 * The plan with its pins. Devices are dragged from the list onto the plan, or tapped and then
 * placed with a tap on the plan (phones); pins are dragged to move them and tapped to open the
 * device. Positions are fractions of the image, so they hold at any size the plan is drawn.
 */
export function PlanBoard({
  imageUrl,
  mapName,
  pins,
  unplaced,
  group,
  onGroupChange,
  onPlace,
  onOpen,
}: PlanBoardProps) {
  const { t } = useTranslation();
  const image = useRef<HTMLImageElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [armed, setArmed] = useState<{ mac: string; title: string } | null>(null);
  const [broken, setBroken] = useState(false);

  const at = (clientX: number, clientY: number) => {
    const box = image.current?.getBoundingClientRect();
    return box ? fractionIn(box, clientX, clientY) : null;
  };

  const start = (e: ReactPointerEvent<HTMLElement>, mac: string, title: string, fromPin: boolean) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({
      mac,
      title,
      fromPin,
      startX: e.clientX,
      startY: e.clientY,
      x: e.clientX,
      y: e.clientY,
      moved: false,
    });
  };
  const move = (e: ReactPointerEvent<HTMLElement>) => {
    if (!drag) return;
    const moved = drag.moved || Math.hypot(e.clientX - drag.startX, e.clientY - drag.startY) > TAP_PX;
    setDrag({ ...drag, x: e.clientX, y: e.clientY, moved });
  };
  const end = (e: ReactPointerEvent<HTMLElement>) => {
    if (!drag) return;
    setDrag(null);
    if (drag.moved) {
      const p = at(e.clientX, e.clientY);
      if (p) onPlace(drag.mac, p.x, p.y);
      setArmed(null);
      return;
    }
    if (drag.fromPin) {
      const pin = pins.find((q) => q.mac === drag.mac);
      if (pin) onOpen(pin);
    } else {
      setArmed(armed?.mac === drag.mac ? null : { mac: drag.mac, title: drag.title });
    }
  };
  const dragHandlers = {
    onPointerMove: move,
    onPointerUp: end,
    onPointerCancel: () => setDrag(null),
  };

  return (
    <Flex vertical gap={12}>
      {broken ? (
        <Alert type="error" showIcon message={t('sitemaps.loading_failed')} />
      ) : (
        <div className="site-plan" data-testid="site-plan">
          <img
            ref={image}
            src={imageUrl}
            alt={mapName}
            draggable={false}
            onError={() => setBroken(true)}
            onClick={(e) => {
              if (!armed) return;
              const p = at(e.clientX, e.clientY);
              if (p) onPlace(armed.mac, p.x, p.y);
              setArmed(null);
            }}
            style={{ cursor: armed ? 'crosshair' : 'default' }}
          />
          {pins.map((pin) => {
            const label = t('sitemaps.pin_label', {
              title: pin.title,
              state: t(`sitemaps.state.${pin.state}`),
            });
            const dragged = drag?.fromPin && drag.mac === pin.mac && drag.moved;
            return (
              <button
                key={pin.mac}
                type="button"
                className={`site-pin site-pin--${pin.state.toLowerCase()}`}
                data-testid={`pin-${pin.mac}`}
                data-state={pin.state}
                aria-label={label}
                title={label}
                style={{
                  left: `${pin.x * 100}%`,
                  top: `${pin.y * 100}%`,
                  background: PIN_COLORS[pin.state],
                  opacity: dragged ? 0.4 : 1,
                }}
                onPointerDown={(e) => start(e, pin.mac, pin.title, true)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') onOpen(pin);
                }}
                {...dragHandlers}
              >
                <span className="site-pin__label">{pin.title}</span>
              </button>
            );
          })}
        </div>
      )}
      <Flex vertical gap={8}>
        <Typography.Text strong>{t('sitemaps.devices')}</Typography.Text>
        <Input
          aria-label={t('sitemaps.group_name')}
          placeholder={t('sitemaps.group_name')}
          value={group}
          maxLength={60}
          onChange={(e) => onGroupChange(e.target.value)}
          style={{ maxWidth: 320 }}
        />
        {unplaced.length === 0 ? (
          <Typography.Text type="secondary">{t('sitemaps.all_placed')}</Typography.Text>
        ) : (
          <>
            <Typography.Text type="secondary">
              {armed ? t('sitemaps.placing', { title: armed.title }) : t('sitemaps.place_hint')}
            </Typography.Text>
            <Flex gap={8} wrap data-testid="site-palette">
              {unplaced.map((d) => (
                <Button
                  key={d.mac}
                  className="site-chip"
                  data-testid={`chip-${d.mac}`}
                  type={armed?.mac === d.mac ? 'primary' : 'default'}
                  onPointerDown={(e) => start(e, d.mac, d.title, false)}
                  {...dragHandlers}
                >
                  {d.title}
                </Button>
              ))}
            </Flex>
          </>
        )}
      </Flex>
      {drag?.moved && (
        <div className="site-ghost" style={{ left: drag.x, top: drag.y }} aria-hidden="true">
          {drag.title}
        </div>
      )}
    </Flex>
  );
}
