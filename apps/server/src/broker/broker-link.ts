// What the rest of the server sees of MQTT, whichever broker is in use.

/** Tells the broker a device message was taken (PUBACK); called once it is durable. */
export type Ack = () => void;

/**
 * Receives every device message: topic, payload, the publishing device's mac when known, and
 * for a QoS 1 message the acknowledgement the receiver calls once the message is committed.
 */
export type MessageSink = (topic: string, payload: Buffer, publisherMac?: string, ack?: Ack) => void;

/** A connection to the device broker, embedded or external. */
export interface BrokerLink {
  /** Publishes to a device topic with QoS 1 (commands). */
  publish(topic: string, payload: string): Promise<void>;
  close(): Promise<void>;
}
