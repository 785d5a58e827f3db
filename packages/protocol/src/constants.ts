/** Version label shown in the footer of every screen. */
export const APP_VERSION = '1.4.23';

/** Device types. The seeds fix only the precision device (3); the others are named here once. */
export const DeviceType = {
  /** Household smart meter with appliance disaggregation (NILM), optional LoRa. */
  SmartMeter: 1,
  /** Meter with a load disconnector (relay). */
  Disconnector: 2,
  /** Applied-precision field analyzer: reference meter, power quality, meter tests. */
  Precision: 3,
  /** Three-phase industrial meter. */
  Industrial: 4,
  /** Single-phase plug-in meter. */
  Plug: 5,
  /** Sub-metering module for distribution boards. */
  Submeter: 6,
} as const;
/** A device type id, 1 to 6. */
export type DeviceTypeId = (typeof DeviceType)[keyof typeof DeviceType];
/** Every device type id, in order. */
export const DEVICE_TYPES: readonly DeviceTypeId[] = [1, 2, 3, 4, 5, 6];

/** Sign-in type: 1 local account, 2 identity provider. */
export const AuthType = { Local: 1, IdentityProvider: 2 } as const;
/** A sign-in type id. */
export type AuthTypeId = (typeof AuthType)[keyof typeof AuthType];

/** Application right names. */
export const Application = { UserManager: 'USER_MANAGER' } as const;
/** Every known application right. */
export const APPLICATIONS = [Application.UserManager] as const;
/** An application right name. */
export type ApplicationName = (typeof APPLICATIONS)[number];

/** The user that can never change its password. */
export const DEMO_LOGIN = 'demo';

/** Seconds a local session lives (seed 000 section 9). */
export const LOCAL_SESSION_SEC = 3599;

/** Assignment expiry that means "owner", effectively permanent (seed 001 section 9). */
export const OWNER_LIFETIME_SEC = 32535215940;
/** Assignment validity choices in seconds; 'owner' is the permanent one. */
export const DEVICE_VALIDITY_SEC = [2592000, 15724800, 31536000, 63072000] as const;
/** Devices a user may hold before more are refused (seed 001 section 9). */
export const MAX_DEVICES_PER_USER = 15;

/** Hierarchy limits (seed 000 sections 5 and 9). */
export const HIERARCHY_NAME_MAX = 24;
/** Visible length of the first tag in the tree. */
export const TAG_TEXT_MAX = 12;
/** Largest accepted serialized hierarchy, in characters. */
export const HIERARCHY_MENU_MAX_CHARS = 200_000;
/** Most nodes a hierarchy may hold. */
export const HIERARCHY_MAX_NODES = 2_000;
/** Deepest folder nesting accepted. */
export const HIERARCHY_MAX_DEPTH = 12;

/** MRK and RK bounds in kW (seed 000 section 9). */
export const MRK_MAX_KW = 100_000_000;
/** Decimals allowed for MRK and RK. */
export const MRK_DECIMALS = 3;

/** Sign-in throttling: failures on an account after which addresses that failed on it must wait. */
export const LOGIN_FAILURES_PER_ACCOUNT = 5;
/** Sign-in throttling: failures allowed per client address within the window. */
export const LOGIN_FAILURES_PER_ADDRESS = 30;
/** Sign-in throttling: the window of the per-address count, in milliseconds. */
export const LOGIN_WINDOW_MS = 5 * 60 * 1000;

/** Data sources of the graph toolbar. */
export const DataSource = { WiFi: 1, LoRa: 2 } as const;
/** A data source id. */
export type DataSourceId = (typeof DataSource)[keyof typeof DataSource];

/** Device online status codes. */
export const OnlineStatus = { Offline: 0, Online: 1, DatabaseUpdate: 2 } as const;

/**
 * A device message stamped more than this ahead of the server clock is refused (docs/telemetry.md):
 * an NTP-synchronised meter is within a second, and one that lost synchronisation drifts about two
 * seconds a day, so a minute covers a month without synchronisation.
 */
export const CLOCK_AHEAD_TOLERANCE_SEC = 60;
/** A device message older than this behind the server clock is refused: beyond any meter's buffer. */
export const CLOCK_BEHIND_LIMIT_SEC = 35 * 86400;
