// What the rest of the server sees of MQTT, whichever broker is in use.

/** Receives every device message: topic, payload, and the publishing device's mac when known. */
export type MessageSink = (topic: string, payload: Buffer, publisherMac?: string) => void;

/** A connection to the device broker, embedded or external. */
export interface BrokerLink {
  /** Publishes to a device topic with QoS 1 (commands). */
  publish(topic: string, payload: string): Promise<void>;
  close(): Promise<void>;
}
