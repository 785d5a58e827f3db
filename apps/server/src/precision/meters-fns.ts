// Pure rules of the meter database: canonical form and CRC of a meter, device records, next IDN,
// and recognising image files by their content.
import { crc32 } from 'node:zlib';
import type { METER_IMAGE_TYPES } from '@meterportal/protocol';
import type { MultipartFile } from '../http/multipart';
import {
  METER_FIELD_KEYS,
  METER_IMAGE_EXTENSIONS,
  METER_IMAGE_MAX_BYTES,
  MeterInput,
  type MeterFields,
  type MeterRecord,
} from '@meterportal/protocol';

/** The fields in canonical key order as JSON: what is stored and what the CRC covers. */
export function canonicalFields(fields: MeterFields): string {
  const ordered: Record<string, string | number> = {};
  for (const k of METER_FIELD_KEYS) ordered[k] = fields[k];
  return JSON.stringify(ordered);
}

/** CRC-32 (IEEE) of the canonical fields, 8 upper-case hex digits. */
export function meterCrc(fields: MeterFields): string {
  return crc32(Buffer.from(canonicalFields(fields), 'utf8'))
    .toString(16)
    .toUpperCase()
    .padStart(8, '0');
}

/** Next free IDN on a device: one above the highest numeric IDN it has used (meters or tests). */
export function nextIdn(usedIdns: readonly string[]): string {
  let max = 0;
  for (const idn of usedIdns) if (/^\d{1,15}$/.test(idn)) max = Math.max(max, Number(idn));
  return String(max + 1);
}

/** A stored meter as the device's database holds it (sent with METERS_DOWNLOAD). */
export function toDeviceRecord(m: {
  idn: string;
  fields: MeterFields;
  crc: string;
  mtimeSec: number;
}): MeterRecord {
  return { ...m.fields, IDN: m.idn, CRC: m.crc, MTIME: m.mtimeSec };
}

/** A device record read back (METERS_UPLOAD), validated like a meter typed in the wizard. */
export type ParsedRecord =
  | { ok: true; idn: string; fields: MeterFields; mtimeSec: number | null }
  | { ok: false; idn: string; error: string };

/** Validates one record of a device's meter database; missing fields take the wizard's rules. */
export function parseDeviceRecord(r: MeterRecord): ParsedRecord {
  const parsed = MeterInput.safeParse(r);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      idn: r.IDN,
      error: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'bad value'}`,
    };
  }
  const mtime = typeof r.MTIME === 'number' ? r.MTIME : Number(r.MTIME);
  return {
    ok: true,
    idn: r.IDN,
    fields: parsed.data,
    mtimeSec: Number.isInteger(mtime) && mtime > 0 ? mtime : null,
  };
}

/** The image types a meter may have. */
export type MeterImageType = (typeof METER_IMAGE_TYPES)[number];

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** PNG or JPEG by the file's first bytes, whatever its name says; null for anything else. */
export function sniffImageType(bytes: Uint8Array): MeterImageType | null {
  if (bytes.length >= PNG_MAGIC.length && PNG_MAGIC.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

/** One uploaded file as received (cut one byte past the size limit). */
export type UploadedFile = MultipartFile;

/** Why an uploaded file is refused, or the type it is stored with. */
export type ImageCheck =
  { ok: true; type: MeterImageType } | { ok: false; reason: 'too_large' | 'unsupported'; message: string };

/**
 * Accepts a file only when it is a real PNG or JPEG by content, and its declared type and name
 * extension say the same kind; at most METER_IMAGE_MAX_BYTES.
 */
export function checkImage(f: UploadedFile): ImageCheck {
  if (f.truncated || f.bytes.length > METER_IMAGE_MAX_BYTES) {
    return {
      ok: false,
      reason: 'too_large',
      message: `file too large: ${f.name} is over ${METER_IMAGE_MAX_BYTES} bytes`,
    };
  }
  const unsupported = (): ImageCheck => ({
    ok: false,
    reason: 'unsupported',
    message: `file format not supported: ${f.name} (png, jpeg, jpg only)`,
  });
  const ext = /\.([A-Za-z0-9]+)$/.exec(f.name)?.[1]?.toLowerCase();
  if (!ext || !(METER_IMAGE_EXTENSIONS as readonly string[]).includes(ext)) return unsupported();
  const byName: MeterImageType = ext === 'png' ? 'image/png' : 'image/jpeg';
  const declared = f.declaredType.toLowerCase().split(';')[0]!.trim();
  const byDeclared = declared === 'image/jpg' ? 'image/jpeg' : declared;
  const actual = sniffImageType(f.bytes);
  if (!actual || actual !== byName || actual !== byDeclared) return unsupported();
  return { ok: true, type: actual };
}

/** A file name safe to store and to send back in a header: no path, no control characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(-200);
  return clean || 'image';
}
