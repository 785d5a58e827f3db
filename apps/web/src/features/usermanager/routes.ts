/** Paths of the applications area (seed 001 section 2), apart so the sidebar does not load it. */
export const USER_MANAGER_ROUTE = '/applications/user-manager';
/** Registering devices and their MQTT credentials, inside the user manager. */
export const REGISTRATION_ROUTE = '/applications/user-manager/devices';
