import {
  Application,
  AuthType,
  DEMO_LOGIN,
  DeviceType,
  OWNER_LIFETIME_SEC,
  type DeviceTypeId,
} from '@meterportal/protocol';
import { generatePassword, hashPasswordDigest, sha256Hex } from '../auth/crypto';
import { newDeviceRow } from '../devices/provisioning';
import type { Services } from '../services';

/** One device the demo installation starts with. */
export interface DemoDevice {
  mac: string;
  type: DeviceTypeId;
  title: string;
  description?: 'PTE' | 'WS';
  phaseUse: number;
  lora?: boolean;
  nilm?: boolean;
  /** Whether demo owns it (admin owns every device). */
  demoOwner: boolean;
}

/** The demo fleet: one device of every type. */
export const DEMO_DEVICES: readonly DemoDevice[] = [
  {
    mac: '02-4D-50-00-00-01',
    type: DeviceType.SmartMeter,
    title: 'Family house',
    phaseUse: 3,
    lora: true,
    nilm: true,
    demoOwner: true,
  },
  {
    mac: '02-4D-50-00-00-02',
    type: DeviceType.Disconnector,
    title: 'Garage breaker',
    phaseUse: 1,
    demoOwner: false,
  },
  {
    mac: '02-4D-50-00-00-03',
    type: DeviceType.Precision,
    title: 'Test bench analyzer',
    description: 'PTE',
    phaseUse: 3,
    demoOwner: true,
  },
  {
    mac: '02-4D-50-00-00-04',
    type: DeviceType.Industrial,
    title: 'Workshop main',
    description: 'WS',
    phaseUse: 3,
    demoOwner: true,
  },
  { mac: '02-4D-50-00-00-05', type: DeviceType.Plug, title: 'Office plug', phaseUse: 1, demoOwner: false },
  {
    mac: '02-4D-50-00-00-06',
    type: DeviceType.Submeter,
    title: 'Solar sub-meter',
    description: 'WS',
    phaseUse: 3,
    demoOwner: true,
  },
];

/** What the first start created; the admin password is shown once. */
export interface SeedResult {
  adminLogin: string;
  adminPassword: string;
  adminPasswordGenerated: boolean;
  demoLogin: string;
  demoPassword: string;
  devices: number;
}

/** Demo assignments that are not ownership last this long. */
const DEMO_GUEST_VALIDITY_SEC = 31536000;

/** On an empty database: admin, demo and one device of every type. Otherwise nothing. */
export async function seedIfEmpty(s: Services): Promise<SeedResult | null> {
  if ((await s.repos.users.count()) > 0) return null;
  const now = s.clock.nowMs();
  const adminPassword = s.config.PORTAL_ADMIN_PASSWORD ?? generatePassword(16);
  const admin = await s.repos.users.create({
    login: 'admin',
    auth_type: AuthType.Local,
    password_hash: await hashPasswordDigest(sha256Hex(adminPassword)),
    issuer: null,
    subject: null,
    user_name: null,
    avatar: null,
    applications: [Application.UserManager],
    created_at_ms: now,
  });
  const demo = await s.repos.users.create({
    login: DEMO_LOGIN,
    auth_type: AuthType.Local,
    password_hash: await hashPasswordDigest(sha256Hex('demo')),
    issuer: null,
    subject: null,
    user_name: null,
    avatar: null,
    applications: [],
    created_at_ms: now,
  });
  for (const d of DEMO_DEVICES) {
    const row =
      (await s.repos.devices.findByMac(d.mac)) ?? (await s.repos.devices.createDevice(newDeviceRow(d, now)));
    await s.repos.devices.assign({
      userId: admin.id,
      deviceId: row.id,
      owner: true,
      lifeTimeSec: OWNER_LIFETIME_SEC,
      nowMs: now,
    });
    await s.repos.devices.assign({
      userId: demo.id,
      deviceId: row.id,
      owner: d.demoOwner,
      lifeTimeSec: d.demoOwner ? OWNER_LIFETIME_SEC : Math.floor(now / 1000) + DEMO_GUEST_VALIDITY_SEC,
      nowMs: now,
    });
  }
  return {
    adminLogin: 'admin',
    adminPassword,
    adminPasswordGenerated: !s.config.PORTAL_ADMIN_PASSWORD,
    demoLogin: DEMO_LOGIN,
    demoPassword: 'demo',
    devices: DEMO_DEVICES.length,
  };
}
