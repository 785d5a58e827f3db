/** MQTT contract between meters and the portal; see docs/mqtt.md. */
export * from './mqtt-messages';
export * from './mqtt-accutest';
export * from './mqtt-commands';
export * from './mqtt-decode';
