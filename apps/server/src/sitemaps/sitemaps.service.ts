import {
  SITE_MAP_MAX_BYTES,
  SITE_MAP_MAX_MAPS,
  type SiteMap,
  type SitePinState,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import { InvalidRequest, NotFound, PayloadTooLarge } from '../http/errors';
import type { MultipartFile } from '../http/multipart';
import { sniffImageType } from '../precision/meters-fns';
import type { SiteMapsRepository } from './sitemaps.repository';

/** The seed's texts for a refused plan image. */
export const FILE_TOO_LARGE = 'File is too large, max allowed size is 1MB';
export const FILE_FORMAT_NOT_SUPPORTED = 'File format not supported';

/**
 * Site maps of a user: plans of floors or sites with the user's assigned devices pinned on them.
 * A map belongs to its user alone; another user's map, and a device not assigned to the user
 * right now, look absent.
 */
export function siteMapsService(deps: { repo: SiteMapsRepository; devices: DevicesService; clock: Clock }) {
  const { repo, devices, clock } = deps;

  async function ownMap(user: SessionUser, id: number) {
    const m = await repo.find(user.userId, id);
    if (!m) throw new NotFound('Site map not found');
    return m;
  }

  return {
    /** The maps with the pins of devices still assigned, each with its live state. */
    async list(user: SessionUser): Promise<SiteMap[]> {
      const maps = await repo.list(user.userId);
      const pins = await repo.pins(maps.map((m) => m.id));
      const assigned = new Map((await devices.assigned(user.userId)).map((d) => [d.id, d]));
      const placed = [...new Set(pins.map((p) => p.device_id))].filter((id) => assigned.has(id));
      const [online, alarmed] = await Promise.all([repo.online(placed), repo.alarmed(user.userId, placed)]);
      const stateOf = (id: number): SitePinState =>
        alarmed.has(id) ? 'ALARM' : online.has(id) ? 'ONLINE' : 'OFFLINE';
      return maps.map((m) => ({
        id: m.id,
        name: m.name,
        type: m.content_type === 'image/png' ? ('image/png' as const) : ('image/jpeg' as const),
        sizeBytes: m.size_bytes,
        pins: pins.flatMap((p) => {
          const d = p.map_id === m.id ? assigned.get(p.device_id) : undefined;
          if (!d) return [];
          return [
            {
              mac: d.mac,
              title: d.title,
              type: d.type,
              group: p.group_name,
              x: Number(p.x),
              y: Number(p.y),
              state: stateOf(d.id),
            },
          ];
        }),
      }));
    },

    async image(user: SessionUser, id: number): Promise<{ type: string; bytes: Buffer }> {
      const img = await repo.image(user.userId, id);
      if (!img) throw new NotFound('Site map not found');
      return { type: img.content_type, bytes: Buffer.from(img.bytes) };
    },

    /**
     * Stores a plan: exactly one file, PNG or JPEG by its content whatever its name or declared
     * type, at most 1 MB. Too large answers 609, any other format 600, and nothing is stored.
     */
    async upload(user: SessionUser, name: string, files: readonly MultipartFile[]): Promise<number> {
      if (files.length !== 1) throw new InvalidRequest('Invalid request: one image file expected');
      const f = files[0]!;
      if (f.truncated || f.bytes.length > SITE_MAP_MAX_BYTES) throw new PayloadTooLarge(FILE_TOO_LARGE);
      const type = sniffImageType(f.bytes);
      if (!type) throw new InvalidRequest(`Invalid request: ${FILE_FORMAT_NOT_SUPPORTED}`);
      if ((await repo.count(user.userId)) >= SITE_MAP_MAX_MAPS)
        throw new InvalidRequest(`Invalid request: at most ${SITE_MAP_MAX_MAPS} site maps`);
      return repo.insert({ userId: user.userId, name, type, bytes: f.bytes, nowMs: clock.nowMs() });
    },

    async rename(user: SessionUser, id: number, name: string): Promise<void> {
      if (!(await repo.rename(user.userId, id, name))) throw new NotFound('Site map not found');
    },

    async remove(user: SessionUser, id: number): Promise<void> {
      if (!(await repo.remove(user.userId, id))) throw new NotFound('Site map not found');
    },

    async savePin(
      user: SessionUser,
      p: { id: number; token: string; group: string; x: number; y: number },
    ): Promise<void> {
      const m = await ownMap(user, p.id);
      const d = await devices.resolve(user, p.token);
      await repo.savePin({ map_id: m.id, device_id: d.id, group_name: p.group, x: p.x, y: p.y });
    },

    async removePin(user: SessionUser, id: number, token: string): Promise<void> {
      const m = await ownMap(user, id);
      const d = await devices.resolve(user, token);
      if (!(await repo.removePin(m.id, d.id))) throw new NotFound('Device is not on this map');
    },
  };
}
/** Site maps. */
export type SiteMapsService = ReturnType<typeof siteMapsService>;
