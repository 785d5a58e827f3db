// Turns raw MQTT bytes into typed messages; never throws, so one bad device cannot stop ingest.
import type { z } from 'zod';
import { AccuTestDataMessage } from './mqtt-accutest';
import {
  AccuTestStateMessage,
  EventMessage,
  LiveFrame,
  TOPIC_MAX_BYTES,
  StateMessage,
  findTextFault,
  type TextFault,
  UpgradeMessage,
  parseDeviceTopic,
  type TopicKind,
} from './mqtt-messages';
import { CommandReply, CommandRequest } from './mqtt-commands';
import { exactLiveFrame } from './mqtt-live-check';

/** Payload schema of every topic kind. */
export const TOPIC_SCHEMAS = {
  live: LiveFrame,
  state: StateMessage,
  event: EventMessage,
  'accutest/data': AccuTestDataMessage,
  'accutest/state': AccuTestStateMessage,
  upgrade: UpgradeMessage,
  'cmd/req': CommandRequest,
  'cmd/res': CommandReply,
} as const satisfies Record<TopicKind, z.ZodType>;

/** A decoded device message, discriminated by topic kind. */
export type DeviceMessage = {
  [K in TopicKind]: { kind: K; mac: string; payload: z.infer<(typeof TOPIC_SCHEMAS)[K]> };
}[TopicKind];

/**
 * Why a message was refused: a text no database can store (TextFault), a number outside its
 * quantity's physical bounds or not finite (out_of_range), or another breach of the schema.
 */
export type RejectReason =
  'topic' | 'oversized' | 'encoding' | 'json' | 'schema' | 'out_of_range' | TextFault;

/** Result of decoding: a message, or the reason it was refused. */
export type DecodeResult =
  { ok: true; message: DeviceMessage } | { ok: false; reason: RejectReason; detail: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * True when the issue is a number beyond its bounds, one JSON made infinite (1e400), or an
 * integer too large to hold exactly.
 */
function outOfRange(issue: z.core.$ZodIssue, json: unknown): boolean {
  if ((issue.code === 'too_big' || issue.code === 'too_small') && issue.origin === 'number') return true;
  let value: unknown = json;
  for (const key of issue.path)
    value =
      typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return (
    typeof value === 'number' &&
    (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value)))
  );
}

/** Decodes the payload of a known topic kind. */
export function decodePayload<K extends TopicKind>(
  kind: K,
  bytes: Uint8Array,
):
  | { ok: true; payload: z.infer<(typeof TOPIC_SCHEMAS)[K]> }
  | { ok: false; reason: RejectReason; detail: string } {
  if (bytes.byteLength > TOPIC_MAX_BYTES[kind]) {
    return { ok: false, reason: 'oversized', detail: `${bytes.byteLength} bytes` };
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, reason: 'encoding', detail: 'not UTF-8' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: 'json', detail: e instanceof Error ? e.message : 'bad JSON' };
  }
  if (kind === 'live') {
    // Every meter's every second: the one-pass check, the schema only for what it does not pass.
    const frame = exactLiveFrame(json);
    if (frame) return { ok: true, payload: frame as z.infer<(typeof TOPIC_SCHEMAS)[K]> };
  }
  // A live frame carries numbers only and its schema drops unknown keys, so no text of it is
  // stored; skipping it keeps the check off the path of every second's frame.
  const badText = kind === 'live' ? null : findTextFault(json);
  if (badText) return { ok: false, reason: badText.fault, detail: badText.path };
  const parsed = TOPIC_SCHEMAS[kind].safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const detail = issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid';
    return { ok: false, reason: issue && outOfRange(issue, json) ? 'out_of_range' : 'schema', detail };
  }
  return { ok: true, payload: parsed.data as z.infer<(typeof TOPIC_SCHEMAS)[K]> };
}

/** Decodes a message from its topic and payload bytes; never throws. */
export function decodeDeviceMessage(topic: string, bytes: Uint8Array): DecodeResult {
  const t = parseDeviceTopic(topic);
  if (!t) return { ok: false, reason: 'topic', detail: topic.slice(0, 120) };
  const r = decodePayload(t.kind, bytes);
  if (!r.ok) return r;
  return { ok: true, message: { kind: t.kind, mac: t.mac, payload: r.payload } as DeviceMessage };
}

/** Encodes a payload for publishing (JSON text, UTF-8 on the wire). */
export function encodePayload(payload: unknown): string {
  return JSON.stringify(payload);
}
