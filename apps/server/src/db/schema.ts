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
  /** How the device speaks MQTT (DeviceFamily); `portal` unless registered as another family. */
  family: Generated<string>;
  /** The family's topic or prefix (Shelly prefix, Tasmota topic, P1 topic); null for `portal`. */
  family_topic: string | null;
  /** Time zone of the device's clock when not the installation's (Tasmota local time, P1). */
  family_tz: string | null;
  /** A generic JSON meter's mapping (JsonMapping as JSON text); null for the other families. */
  family_mapping: string | null;
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
  /** The address of an e-mail destination (dest_type 3). */
  email: string | null;
  /** Language of an e-mail destination's messages: en, sk or de. */
  email_language: string | null;
}

/** Which stored notifications a user has read. */
export interface NotificationReadsTable {
  user_id: number;
  notification_id: number;
  read_at_ms: number;
}

/** Outbox of notifications to send to Webex spaces and e-mail addresses, retried with backoff. */
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

/** A user's read-only bearer token for other programs, keyed by the SHA-256 of its secret. */
export interface IntegrationTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_hash: string;
  /** 1: every device assigned to the user; 0: only those in integration_token_devices. */
  all_devices: number;
  created_at_ms: number;
  /** End of validity, unix seconds; null never ends. */
  expires_at_sec: number | null;
  last_used_at_ms: number | null;
}

/** The devices a limited integration token may read (still only while assigned to its user). */
export interface IntegrationTokenDevicesTable {
  token_id: number;
  device_id: number;
}

/** Tariff versions per device, each valid from a local date; body is the Tariff's JSON text. */
export interface TariffsTable {
  device_id: number;
  /** YYYY-MM-DD, local date of the installation's time zone. */
  valid_from: string;
  body: string;
  updated_at_ms: number;
}

/** A user's alarm rule on a device. */
export interface AlarmRulesTable {
  id: Generated<number>;
  user_id: number;
  device_id: number;
  /** JSON of the AlarmRuleDefinition. */
  definition: string;
  /** Language of the rule's notification texts: en, sk or de. */
  lang: string;
  created_at_ms: number;
  updated_at_ms: number;
}

/** An alarm a rule raised: raised, acknowledged, cleared. */
export interface AlarmsTable {
  id: Generated<number>;
  rule_id: number;
  user_id: number;
  device_id: number;
  name: string;
  severity: string;
  state: string;
  value: number | null;
  raised_at_ms: number;
  acked_at_ms: number | null;
  /** Login of who acknowledged it. */
  acked_by: string | null;
  ack_note: string | null;
  cleared_at_ms: number | null;
}

/** A switching of a disconnector's relay: by a user through the portal, or reported by the device. */
export interface RelaySwitchingsTable {
  id: Generated<number>;
  device_id: number;
  /** OPEN or CLOSED. */
  state: string;
  /** USER, or the device's reason: COMMAND, OVERLOAD, MANUAL. */
  cause: string;
  /** Who switched it (cause USER); null for device events or a removed user. */
  user_id: number | null;
  at_ms: number;
}

/** A firmware version offered for one device type, with its image when one was uploaded. */
export interface FirmwareVersionsTable {
  id: Generated<number>;
  device_type: number;
  version: string;
  image_name: string | null;
  size_bytes: number | null;
  /** SHA-256 of the image, lower-case hex. */
  sha256: string | null;
  image: Buffer | null;
  created_by: number | null;
  created_at_ms: number;
}

/** One firmware upgrade of one device, from start to outcome. */
export interface FirmwareUpgradesTable {
  id: Generated<number>;
  device_id: number;
  user_id: number | null;
  /** Version the device reported before the upgrade. */
  from_fw: string | null;
  to_fw: string;
  /** Version the device reported after it. */
  fw_after: string | null;
  /** An UpgradeState. */
  state: string;
  /** Progress, %. */
  progress: number;
  started_at_ms: number;
  /** Last word from the device (or the portal's timeout). */
  updated_at_ms: number;
  finished_at_ms: number | null;
}

/** An appliance a household meter knows (NILM). */
export interface NilmAppliancesTable {
  id: Generated<number>;
  device_id: number;
  name: string;
  /** L1, L2 or L3; null when not known. */
  phase: string | null;
  /** TAUGHT by a user or LEARNED by the meter itself. */
  origin: string;
  /** JSON of the taught power edges; null when there is none. */
  imprint: string | null;
  created_at_ms: number;
}

/** The anomaly model of a household meter and where its detection stands. */
export interface AnomalyModelsTable {
  device_id: number;
  weeks: number;
  hours_in_row: number;
  from_sec: number;
  to_sec: number;
  hours_used: number;
  trained_at_ms: number;
  /** 1 when the weekly schedule trained it, 0 for the owner's button. */
  scheduled: number;
  /** JSON array of AnomalySlot. */
  slots: string;
  /** End of the last hour checked, unix seconds. */
  checked_to_sec: number;
  /** JSON RunState: the hours outside the band detection is in. */
  run_state: string;
  open_anomaly_id: number | null;
}

/** A time a household meter's consumption stayed outside its expected band. */
export interface AnomaliesTable {
  id: Generated<number>;
  device_id: number;
  start_sec: number;
  end_sec: number | null;
  hours: number;
  direction: string;
  expected_low_wh: number;
  expected_high_wh: number;
  seen_wh: number;
}

/** A user's floor or site plan. */
export interface SiteMapsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** image/png or image/jpeg, by the file's content. */
  content_type: string;
  size_bytes: number;
  bytes: Uint8Array;
  created_at_ms: number;
}

/** A device placed on a site map, at fractions of the image's width (x) and height (y). */
export interface SiteMapPinsTable {
  map_id: number;
  device_id: number;
  group_name: string;
  x: number;
  y: number;
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
  notification_reads: NotificationReadsTable;
  meters: MetersTable;
  meter_images: MeterImagesTable;
  meter_tests: MeterTestsTable;
  integration_tokens: IntegrationTokensTable;
  integration_token_devices: IntegrationTokenDevicesTable;
  tariffs: TariffsTable;
  alarm_rules: AlarmRulesTable;
  alarms: AlarmsTable;
  relay_switchings: RelaySwitchingsTable;
  firmware_versions: FirmwareVersionsTable;
  firmware_upgrades: FirmwareUpgradesTable;
  nilm_appliances: NilmAppliancesTable;
  anomaly_models: AnomalyModelsTable;
  anomalies: AnomaliesTable;
  site_maps: SiteMapsTable;
  site_map_pins: SiteMapPinsTable;
}
