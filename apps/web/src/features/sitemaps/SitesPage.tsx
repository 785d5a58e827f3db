import { Card, Empty, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { defaultRouteForType } from '../../app/routeMemory';
import { useDeviceList } from '../auth/session';
import { useHierarchyQuery } from '../devices/api';
import { selectDevice } from '../devices/selection';
import { getConfig } from '../../api/config';
import { formatDistance, projectSites, scaleBar, tilesFor } from './siteRules';
import './siteMaps.css';

const MARGIN = 48;

/** The width the plot is drawn at: its box's, so names keep their size on a phone. */
function useBoxWidth() {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(240, Math.floor(entry.contentRect.width)));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { box, width };
}

/**
 * Every device with a latitude and longitude from its details, drawn without any map tiles: a
 * plot scaled to the devices' bounding box, north up, with a scale bar and the device names. An
 * installation that configures its own tile server (MAP_TILE_URL) gets its tiles underneath.
 */
export function SitesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const devices = useDeviceList();
  const hierarchy = useHierarchyQuery();
  const { box, width } = useBoxWidth();
  const height = Math.round(Math.min(Math.max(width * 0.62, 260), 560));

  const sites = (hierarchy.data?.tags ?? []).flatMap((tag) => {
    const d = devices.find((x) => x.mac === tag.mac);
    return d && typeof tag.lat === 'number' && typeof tag.lng === 'number'
      ? [{ lat: tag.lat, lng: tag.lng, mac: d.mac, type: d.type, title: d.title }]
      : [];
  });
  const view = projectSites(sites, width, height, MARGIN);
  const { xy, metresPerPx } = view;
  const bar = scaleBar(metresPerPx, Math.min(140, width / 3));
  // Only an installation's own tile server, when configured; otherwise nothing is fetched.
  const template = getConfig().mapTileUrl ?? '';
  const tiles = template && sites.length > 0 ? tilesFor(template, view, width, height) : [];

  return (
    <Card title={t('sitemaps.sites_title')} loading={hierarchy.isPending && hierarchy.fetchStatus !== 'idle'}>
      <Typography.Paragraph type="secondary">
        {t('sitemaps.sites_intro')}{' '}
        {t('sitemaps.sites_count', { count: sites.length, total: devices.length })}
      </Typography.Paragraph>
      <div ref={box} data-testid="sites-box">
        {sites.length === 0 ? (
          <Empty description={t('sitemaps.sites_empty')} />
        ) : (
          <svg
            className="sites-plot"
            data-testid="sites-plot"
            role="img"
            aria-label={t('sitemaps.sites_map')}
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
          >
            {tiles.map((tile) => (
              <image
                key={tile.href}
                href={tile.href}
                x={tile.x}
                y={tile.y}
                width={tile.width}
                height={tile.height}
                preserveAspectRatio="none"
              />
            ))}
            {sites.map((s, i) => {
              const p = xy[i]!;
              const anchor = p.x > width - 120 ? 'end' : p.x < 120 ? 'start' : 'middle';
              return (
                <g
                  key={s.mac}
                  data-testid={`site-${s.mac}`}
                  role="button"
                  tabIndex={0}
                  style={{ cursor: 'pointer' }}
                  onClick={() => {
                    selectDevice(s.mac);
                    void navigate(defaultRouteForType(s.type));
                  }}
                >
                  <circle cx={p.x} cy={p.y} r={9} fill="#1677ff" stroke="#fff" strokeWidth={3} />
                  <text x={p.x} y={p.y - 15} textAnchor={anchor} fontSize={13} fill="#1f1f1f">
                    {s.title}
                  </text>
                </g>
              );
            })}
            <g data-testid="sites-scale" transform={`translate(16, ${height - 20})`}>
              <line x1={0} y1={0} x2={bar.px} y2={0} stroke="#1f1f1f" strokeWidth={2} />
              <line x1={0} y1={-5} x2={0} y2={5} stroke="#1f1f1f" strokeWidth={2} />
              <line x1={bar.px} y1={-5} x2={bar.px} y2={5} stroke="#1f1f1f" strokeWidth={2} />
              <text x={bar.px / 2} y={-8} textAnchor="middle" fontSize={12} fill="#1f1f1f">
                {formatDistance(bar.metres)}
              </text>
            </g>
            <text x={width - 16} y={24} textAnchor="end" fontSize={14} fontWeight={600} fill="#1f1f1f">
              N ↑
            </text>
          </svg>
        )}
      </div>
    </Card>
  );
}
