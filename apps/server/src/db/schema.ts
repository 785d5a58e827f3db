import type { Generated } from 'kysely';

/** Users: local (auth_type 1, password_hash) or identity provider (auth_type 2, issuer+subject). */
export interface UsersTable {
  id: Generated<number>;
  login: string;
  /** The login as compared: NFKC, case folded; unique. */
  login_key: string | null;
  auth_type: number;
  password_hash: string | null;
  issuer: string | null;
  subject: string | null;
  user_name: string | null;
  avatar: string | null;
  /** Comma-separated application rights. */
  applications: string;
  created_at_ms: number;
}

/** Devices known to the portal. */
export interface DevicesTable {
  id: Generated<number>;
  mac: string;
  type: number;
  title: string;
  description: string | null;
  phase_use: number;
  lora: number;
  nilm_process: number;
  nilm_autolearn: number;
  fw: string | null;
  created_at_ms: number;
}

/** Which user may see which device, until when. */
export interface AssignmentsTable {
  user_id: number;
  device_id: number;
  owner: number;
  /** Expiry, unix seconds; OWNER_LIFETIME_SEC for owners. */
  life_time_sec: number;
  created_at_ms: number;
}

/** Sessions, keyed by the SHA-256 of the opaque token. */
export interface SessionsTable {
  token_hash: string;
  user_id: number;
  auth_type: number;
  expires_at_ms: number;
  created_at_ms: number;
}

/** One saved device tree per user. */
export interface HierarchiesTable {
  user_id: number;
  menu: string;
  updated_at_ms: number;
}

/** Contract limits per device, stored in watts so three kW decimals stay exact. */
export interface DeviceDetailsTable {
  device_id: number;
  mrk_w: number;
  rk_w: number;
  updated_at_ms: number;
}

/** Failed sign-in attempts, for throttling. */
export interface LoginFailuresTable {
  id: Generated<number>;
  key: string;
  at_ms: number;
}

/** Installation-wide secrets shared by every server instance. */
export interface SecretsTable {
  name: string;
  value: string;
}

/** Device notifications as they happened. */
export interface NotificationsTable {
  id: Generated<number>;
  device_id: number;
  type: string;
  /** JSON of the notification data. */
  data: string;
  at_ms: number;
}

/** A user's routing of one notification source of one device to one destination. */
export interface NotificationPairsTable {
  id: Generated<number>;
  user_id: number;
  device_id: number;
  notify_type: number;
  dest_type: number;
  webex_space: string | null;
  created_at_ms: number;
}

/** Outbox of notifications to send to Webex, retried with backoff. */
export interface NotificationDeliveriesTable {
  id: Generated<number>;
  pair_id: number;
  notification_id: number;
  state: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_at_ms: number;
  last_error: string | null;
  sent_at_ms: number | null;
}

/** A meter in the meter database of a precision device. */
export interface MetersTable {
  /** ID_meter of the API. */
  id: Generated<number>;
  device_id: number;
  /** The meter's id in the device's own database. */
  idn: string;
  /** Canonical JSON of the editable fields (MeterFields). */
  fields: string;
  /** CRC-32 of `fields`, 8 upper-case hex digits. */
  crc: string;
  /** Last change, unix seconds. */
  mtime_sec: number;
}

/** An image of a meter (PNG or JPEG). */
export interface MeterImagesTable {
  id: Generated<number>;
  meter_id: number;
  name: string;
  content_type: string;
  size_bytes: number;
  bytes: Buffer;
  created_at_ms: number;
}

/** An accuracy test result reported by a precision device. */
export interface MeterTestsTable {
  id: Generated<number>;
  device_id: number;
  idn: string;
  /** Test time, unix seconds. */
  mtime_sec: number;
  /** JSON of the MeterTestResult as the device sent it. */
  result: string;
  received_at_ms: number;
}

/** The database as Kysely sees it. */
export interface DB {
  users: UsersTable;
  devices: DevicesTable;
  assignments: AssignmentsTable;
  sessions: SessionsTable;
  hierarchies: HierarchiesTable;
  device_details: DeviceDetailsTable;
  login_failures: LoginFailuresTable;
  secrets: SecretsTable;
  notifications: NotificationsTable;
  notification_pairs: NotificationPairsTable;
  notification_deliveries: NotificationDeliveriesTable;
  meters: MetersTable;
  meter_images: MeterImagesTable;
  meter_tests: MeterTestsTable;
}
