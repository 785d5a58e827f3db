import { z } from 'zod';
import { UnixSec } from './units';
import { HIERARCHY_MENU_MAX_CHARS, HIERARCHY_NAME_MAX, MRK_DECIMALS, MRK_MAX_KW } from './constants';
import { DeviceTokenString, Login, Mac, UserToken, okWith } from './common';
import { PROFILE_QUANTITIES } from './history';

/** Phases in use, 1 to 3. */
export const PhaseUse = z.number().int().min(1).max(3);

/** One device of the signed-in user's device list (seed 000 section 3). */
export const DeviceListEntry = z.object({
  /** True when the user owns the device (may set MRK and RK). */
  owner: z.boolean(),
  mac: z.string(),
  /** Device type 1 to 6. */
  type: z.number().int().min(1).max(6),
  /** Device token: send it as token / device_token for calls about this device. */
  token: z.string(),
  /** Assignment expiry in unix seconds (the part after the pipe of the token). */
  expire: UnixSec,
  title: z.string(),
  /** PTE or WS (types 3, 4 and 6). */
  description: z.enum(['PTE', 'WS']).optional(),
  /** Phases in use (types 1, 3, 4, 6). */
  phase_use: PhaseUse.optional(),
  /** LoRa capable (type 1). */
  lora: z.boolean().optional(),
  /** Appliance disaggregation flags (type 1). */
  NILM: z.object({ process: z.boolean(), autoLearn: z.boolean() }).optional(),
  /** Family of a meter the portal adapts (Shelly, Tasmota, P1, generic JSON); absent for its own. */
  family: z.enum(['shelly', 'tasmota', 'p1', 'json']).optional(),
  /**
   * The quantities such a meter reports (an addition to the seed's keys): its views, charts and
   * live values show only these, beside its type's own limits. Absent: every one its type has.
   */
  quantities: z.array(z.enum(PROFILE_QUANTITIES)).optional(),
});
/** One device of the device list. */
export type DeviceListEntry = z.infer<typeof DeviceListEntry>;

/** Names are plain text: markup characters are refused rather than stored. */
export const PlainName = z
  .string()
  .trim()
  .min(1)
  .max(HIERARCHY_NAME_MAX)
  .regex(/^[^<>\p{Cc}]*$/u, 'may not contain < > or control characters');
const NodeTitle = PlainName;

/** Data carried by a hierarchy node. */
export const HierarchyNodeData = z.object({
  id: z.union([z.string().max(64), z.number().int()]),
  mac: Mac.optional(),
  type: z.number().int().min(0).max(6).optional(),
  desc: z.string().max(64).optional(),
  isEdited: z.boolean().optional(),
  showButton: z.boolean().optional(),
});

/** A folder or device node of the hierarchy tree. */
export interface HierarchyNode {
  title: string;
  key?: string | undefined;
  isLeaf?: boolean | undefined;
  isExpanded?: boolean | undefined;
  children?: HierarchyNode[] | undefined;
  data: z.infer<typeof HierarchyNodeData>;
}
/** A folder or device node of the hierarchy tree. */
export const HierarchyNode: z.ZodType<HierarchyNode> = z.lazy(() =>
  z.object({
    title: NodeTitle,
    key: z.string().max(64).optional(),
    isLeaf: z.boolean().optional(),
    isExpanded: z.boolean().optional(),
    children: z.array(HierarchyNode).max(2000).optional(),
    data: HierarchyNodeData,
  }),
);

/** A device tag record: labels and location of one device. */
export const HierarchyTag = z.object({
  /** Unique integer; the next one is the highest plus one. */
  id: z.number().int().min(0).max(1_000_000_000),
  title: NodeTitle,
  mac: Mac,
  tags: z.array(PlainName).max(50),
  lat: z.number().min(-90).max(90).nullable().optional(),
  lng: z.number().min(-180).max(180).nullable().optional(),
});
/** A device tag record. */
export type HierarchyTag = z.infer<typeof HierarchyTag>;

/** The saved tree: nodes and tags. */
export const HierarchyMenu = z.object({
  nodes: z.array(HierarchyNode).max(2000),
  tags: z.array(HierarchyTag).max(2000),
});
/** The saved tree: nodes and tags. */
export type HierarchyMenu = z.infer<typeof HierarchyMenu>;

/** Body of POST (read) /facility/devices-hierarchy. */
export const HierarchyReadRequest = z.object({ token: UserToken });
/** Answer of POST (read) /facility/devices-hierarchy. */
export const HierarchyReadResponse = okWith(HierarchyMenu);

/** Body of POST (write) /facility/devices-hierarchy: menu is the JSON text of nodes and tags. */
export const HierarchyWriteRequest = z.object({
  token: UserToken,
  menu: z.string().min(2).max(HIERARCHY_MENU_MAX_CHARS),
});
/** Body of POST (write) /facility/devices-hierarchy. */
export type HierarchyWriteRequest = z.infer<typeof HierarchyWriteRequest>;

/** Body of DELETE /assign: the user's own assignment of one device. */
export const UnassignRequest = z.object({ token: DeviceTokenString, login: Login });

/** Pattern of an MRK or RK text entry: digits, one optional separator, up to 3 decimals. */
export const MRK_PATTERN = /^\d+([.,]\d{1,3})?$/;

/** True when n is a valid MRK/RK value in kW: 0 to 100000000 with at most 3 decimals. */
export function isValidContractKw(n: number): boolean {
  if (!Number.isFinite(n) || n < 0 || n > MRK_MAX_KW) return false;
  const scaled = n * 10 ** MRK_DECIMALS;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

/** MRK or RK in kW. */
export const ContractKw = z.number().refine(isValidContractKw, {
  message: `must be 0 to ${MRK_MAX_KW} kW with at most ${MRK_DECIMALS} decimals`,
});

/** Body of POST (read) /devices/details. */
export const DeviceDetailsReadRequest = z.object({ token: DeviceTokenString });
/** Contract limits of a device, kW: MRK (maximum reserved capacity) and RK (reserved capacity). */
export const DeviceDetails = z.object({ MRK: z.number(), RK: z.number() });
/** Answer of POST (read) /devices/details. */
export const DeviceDetailsResponse = okWith(DeviceDetails);
/** Body of POST (read) /devices/clock. */
export const DeviceClockReadRequest = z.object({ token: DeviceTokenString });
/**
 * A meter's clock as its frames show it: skewSec is how far it was off (positive ahead) when its
 * frames were last refused for their time, null while its frames are accepted.
 */
export const DeviceClock = z.object({ skewSec: z.number().int().nullable() });
/** Answer of POST (read) /devices/clock. */
export const DeviceClockResponse = okWith(DeviceClock);
/** Body of POST (write) /devices/details. */
export const DeviceDetailsWriteRequest = z.object({
  token: DeviceTokenString,
  MRK: ContractKw,
  RK: ContractKw,
});
