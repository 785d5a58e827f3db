import { PROFILE_QUANTITIES, unixSec } from '@meterportal/protocol';
import { familyMeasures, isAdapterFamily } from '../adapters/families';
import {
  DeviceType,
  HIERARCHY_MAX_DEPTH,
  HIERARCHY_MAX_NODES,
  HierarchyMenu,
  duplicateFolderName,
  type DeviceListEntry,
  type HierarchyNode,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import { DataNotFound, Forbidden, InvalidRequest, NotFound } from '../http/errors';
import { jsonDepth } from '../http/jsonLimits';
import type { DeviceTokens } from './deviceToken';
import type { AssignedDevice, DevicesRepository } from './devices.repository';

/** The part of a session that device rules need. */
export interface SessionUser {
  userId: number;
  login: string;
}

/** The device list entry of seed 000 section 3, shaped per device type. */
export function toDeviceListEntry(d: AssignedDevice, token: string): DeviceListEntry {
  const base: DeviceListEntry = {
    owner: d.owner === 1,
    mac: d.mac,
    type: d.type,
    token,
    expire: unixSec(d.life_time_sec),
    title: d.title,
    // A meter the portal adapts names its family and what it reports, so the web shows no view or
    // value of a quantity it lacks.
    ...(isAdapterFamily(d.family)
      ? {
          family: d.family,
          quantities: PROFILE_QUANTITIES.filter((q) => familyMeasures(d.family, q, d.family_mapping)),
        }
      : {}),
  };
  switch (d.type) {
    case DeviceType.SmartMeter:
      return {
        ...base,
        phase_use: d.phase_use,
        lora: d.lora === 1,
        NILM: { process: d.nilm_process === 1, autoLearn: d.nilm_autolearn === 1 },
      };
    case DeviceType.Precision:
    case DeviceType.Industrial:
    case DeviceType.Submeter:
      return {
        ...base,
        phase_use: d.phase_use,
        ...(d.description === 'PTE' || d.description === 'WS' ? { description: d.description } : {}),
      };
    default:
      return base;
  }
}

function walk(nodes: HierarchyNode[], visit: (n: HierarchyNode, depth: number) => void, depth = 1): void {
  for (const n of nodes) {
    visit(n, depth);
    if (n.children) walk(n.children, visit, depth + 1);
  }
}

function prune(nodes: HierarchyNode[], keep: (mac: string) => boolean): HierarchyNode[] {
  return nodes
    .filter((n) => !n.data.mac || keep(n.data.mac))
    .map((n) => (n.children ? { ...n, children: prune(n.children, keep) } : n));
}

/** Device list, device access, hierarchy and contract limits. */
export function devicesService(deps: { devicesRepo: DevicesRepository; tokens: DeviceTokens; clock: Clock }) {
  const { devicesRepo, tokens, clock } = deps;
  const nowSec = () => Math.floor(clock.nowMs() / 1000);

  /**
   * The device a token names, when it is assigned to this user right now. Every failure (bad
   * signature, other user's device, expired or removed assignment, unknown mac) answers alike.
   */
  async function resolve(user: SessionUser, deviceToken: string): Promise<AssignedDevice> {
    const claims = tokens.verify(user.userId, deviceToken);
    if (!claims) throw new NotFound('Device not found');
    const device = await devicesRepo.findAssigned(user.userId, claims.mac, nowSec());
    if (!device || device.life_time_sec !== claims.expireSec) throw new NotFound('Device not found');
    return device;
  }

  return {
    resolve,

    /** The devices assigned to a user right now. */
    assigned(userId: number): Promise<AssignedDevice[]> {
      return devicesRepo.listForUser(userId, nowSec());
    },

    async deviceList(userId: number): Promise<DeviceListEntry[]> {
      const rows = await devicesRepo.listForUser(userId, nowSec());
      return rows.map((d) => toDeviceListEntry(d, tokens.sign(userId, d.mac, d.life_time_sec)));
    },

    async readHierarchy(user: SessionUser): Promise<HierarchyMenu> {
      const text = await devicesRepo.getHierarchy(user.userId);
      if (!text) throw new DataNotFound('No hierarchy saved');
      const parsed = HierarchyMenu.safeParse(JSON.parse(text));
      if (!parsed.success) throw new DataNotFound('No hierarchy saved');
      // Devices whose assignment ended since the tree was saved disappear from it.
      const macs = new Set((await devicesRepo.listForUser(user.userId, nowSec())).map((d) => d.mac));
      return {
        nodes: prune(parsed.data.nodes, (m) => macs.has(m)),
        tags: parsed.data.tags.filter((t) => macs.has(t.mac)),
      };
    },

    async saveHierarchy(user: SessionUser, menuText: string): Promise<void> {
      // Each tree level nests a node and its children list; the tree, its lists and a node's data
      // add three more. A deeper text is refused before parsing and validation walk it.
      const maxJsonDepth = 2 * HIERARCHY_MAX_DEPTH + 3;
      if (jsonDepth(menuText, maxJsonDepth + 1) > maxJsonDepth) {
        throw new InvalidRequest(`Invalid request at menu: deeper than ${HIERARCHY_MAX_DEPTH}`);
      }
      let raw: unknown;
      try {
        raw = JSON.parse(menuText);
      } catch {
        throw new InvalidRequest('Invalid request at menu: not valid JSON');
      }
      const parsed = HierarchyMenu.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new InvalidRequest(
          `Invalid request at menu.${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`,
        );
      }
      const menu = parsed.data;
      let count = 0;
      let deepest = 0;
      const macsInTree: string[] = [];
      walk(menu.nodes, (n, depth) => {
        count += 1;
        deepest = Math.max(deepest, depth);
        if (n.data.mac) macsInTree.push(n.data.mac);
      });
      if (count > HIERARCHY_MAX_NODES)
        throw new InvalidRequest(`Invalid request at menu: more than ${HIERARCHY_MAX_NODES} nodes`);
      if (deepest > HIERARCHY_MAX_DEPTH)
        throw new InvalidRequest(`Invalid request at menu: deeper than ${HIERARCHY_MAX_DEPTH}`);
      const twice = duplicateFolderName(menu.nodes);
      if (twice !== null)
        throw new InvalidRequest(`Invalid request at menu: two folders named "${twice}" at the same level`);
      const ids = new Set(menu.tags.map((t) => t.id));
      if (ids.size !== menu.tags.length)
        throw new InvalidRequest('Invalid request at menu.tags: ids must be unique');
      const mine = new Set((await devicesRepo.listForUser(user.userId, nowSec())).map((d) => d.mac));
      const foreign = [...macsInTree, ...menu.tags.map((t) => t.mac)].find((m) => !mine.has(m));
      if (foreign)
        throw new InvalidRequest(`Invalid request at menu: device ${foreign} is not among your devices`);
      await devicesRepo.saveHierarchy(user.userId, JSON.stringify(menu), clock.nowMs());
    },

    async unassign(user: SessionUser, deviceToken: string, login: string): Promise<void> {
      const device = await resolve(user, deviceToken);
      // Only one's own assignment: another login answers like a missing device.
      if (login !== user.login) throw new NotFound('Device not found');
      await devicesRepo.unassign(user.userId, device.id);
    },

    async readDetails(user: SessionUser, deviceToken: string): Promise<{ MRK: number; RK: number }> {
      const device = await resolve(user, deviceToken);
      const d = await devicesRepo.getDetails(device.id);
      return { MRK: (d?.mrk_w ?? 0) / 1000, RK: (d?.rk_w ?? 0) / 1000 };
    },

    /** How far the meter's clock is off while its frames are refused for it (null: right). */
    async readClock(user: SessionUser, deviceToken: string): Promise<{ skewSec: number | null }> {
      const device = await resolve(user, deviceToken);
      return { skewSec: await devicesRepo.getClockSkew(device.id) };
    },

    async saveDetails(user: SessionUser, deviceToken: string, mrkKw: number, rkKw: number): Promise<void> {
      const device = await resolve(user, deviceToken);
      if (device.owner !== 1) throw new Forbidden('Only the device owner may set MRK and RK');
      await devicesRepo.saveDetails(
        device.id,
        Math.round(mrkKw * 1000),
        Math.round(rkKw * 1000),
        clock.nowMs(),
      );
    },
  };
}
/** Device list, device access, hierarchy and contract limits. */
export type DevicesService = ReturnType<typeof devicesService>;
