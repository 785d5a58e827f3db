// Meter database of a precision device (type 3) and its accuracy test results (seed 001 sections 3, 5, 7, 9).
import { z } from 'zod';
import { DeviceTokenString, okWith } from './common';

/** Connection enumeration; stored as the index (CONTYPE). */
export const METER_CONNECTIONS = ['3P4W', '3P3W', '2P3W', '1P3W', '1P2W'] as const;
/** Pulse input type enumeration; stored as the index (ELM_OUTPUT_TYPE). */
export const METER_INPUT_TYPES = ['LED', 'DISC/SO', 'SNAP.S'] as const;
/** Energy enumeration; stored as the index (MENERGYTYPE). */
export const METER_ENERGIES = ['Active', 'Reactive', 'Apparent'] as const;
/** Meter constant unit enumeration; stored as the index (CONSTUNIT). */
export const METER_CONSTANT_UNITS = [
  'i/kWh',
  'i/Wh',
  'i/Ws',
  'i/kWs',
  'kWh/i',
  'Wh/i',
  'Ws/i',
  'kWs/i',
  'MWh/i',
  'i/MWh',
] as const;
/** Meter constant type enumeration; stored as the index (CONSTTYPE). */
export const METER_CONSTANT_TYPES = ['Secondary', 'Primary'] as const;
/** Energy method enumeration; stored as the index (ENERMETHOD). */
export const METER_METHODS = ['4Quadrant', 'Algo 1', 'Algo 2', 'Algo 3', 'Algo 4'] as const;

/** Enumerated fields and the list each indexes. */
export const METER_ENUM_FIELDS = {
  CONTYPE: METER_CONNECTIONS,
  ELM_OUTPUT_TYPE: METER_INPUT_TYPES,
  MENERGYTYPE: METER_ENERGIES,
  CONSTUNIT: METER_CONSTANT_UNITS,
  CONSTTYPE: METER_CONSTANT_TYPES,
  ENERMETHOD: METER_METHODS,
} as const;

/** Free-text fields of step 3, 0 to 40 characters each. */
export const METER_TEXT_FIELDS = [
  'CUSTOMER',
  'AREA',
  'LOCATION',
  'ADDRESS',
  'NOTE1',
  'NOTE2',
  'NOTE3',
  'NOTE4',
] as const;
/** Step 2 fields that must be non-negative decimals (or empty). */
export const METER_RATIO_FIELDS = [
  'CTRATIO',
  'VTRATIO',
  'CTSNOM',
  'VTSNOM',
  'IMIN',
  'INOM',
  'IMAX',
  'UNOM',
] as const;

/**
 * Defaults of a new meter (seed 001 section 9): type 1, connection 0, input type 0, energy 0,
 * constant 1000, constant unit 0, constant type 0, CT and VT ratio 1, snom 1, frequency 50, method 0.
 */
export const METER_DEFAULTS = {
  TYPE: '1',
  CONTYPE: 0,
  ELM_OUTPUT_TYPE: 0,
  MENERGYTYPE: 0,
  CONSTANT: '1000',
  CONSTUNIT: 0,
  CONSTTYPE: 0,
  CTRATIO: '1',
  VTRATIO: '1',
  CTSNOM: '1',
  VTSNOM: '1',
  FREQ: '50',
  ENERMETHOD: 0,
} as const;

/** Protocol text of a current transformer: '3x{primary}/{secondary} A' (ISIDE). */
export function currentRatioText(primary: number | string, secondary: number | string): string {
  return `3x${primary}/${secondary} A`;
}
/** Protocol text of a voltage transformer: '3x{primary}/{secondary} V' (USIDE). */
export function voltageRatioText(primary: number | string, secondary: number | string): string {
  return `3x${primary}/${secondary} V`;
}

/** Digits with an optional decimal point (meter constant, class, ratios, frequency). */
export const DECIMAL_PATTERN = /^\d+(\.\d+)?$/;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/**
 * True when both databases store the text as it is: it holds no NUL (PostgreSQL refuses it) and
 * no half of a surrogate pair (not valid UTF-8). Device payloads are checked at decode as well.
 */
export function storableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

const asText = z
  .union([
    z.string().refine(storableText, 'must not hold a NUL character or half of a surrogate pair'),
    z.number().finite(),
  ])
  .transform((v) => String(v).trim());
/** Optional text of at most `max` characters; absent means empty. */
const text = (max: number) =>
  asText
    .pipe(z.string().max(max, `at most ${max} characters`))
    .optional()
    .default('');
/** Non-negative decimal or empty. */
const decimal = asText
  .pipe(z.string().regex(/^$|^\d+(\.\d+)?$/, 'must be a non-negative decimal number'))
  .optional()
  .default('');
/** Index into an enumeration, required. */
const index = (list: readonly string[]) =>
  z.coerce
    .number({ error: 'required selection' })
    .int()
    .min(0)
    .max(list.length - 1, `one of ${list.join(', ')}`);

/**
 * The editable fields of a meter, validated as the add-meter wizard validates them (step 1:
 * SNUM..CONSTTYPE, step 2: ratios, step 3: frequency, method and texts). The server applies the
 * same rules to add and edit. Empty optional fields come back as empty strings.
 */
export const MeterInput = z.object({
  /** Serial number, 1 to 20 characters (required). */
  SNUM: asText.pipe(z.string().min(1, 'required').max(20, 'at most 20 characters')),
  /** Meter type, at most 20 characters. */
  TYPE: text(20),
  /** Meter constant, digits with an optional decimal point (required). */
  CONSTANT: asText.pipe(z.string().regex(DECIMAL_PATTERN, 'digits with an optional decimal point')),
  /** Producer, at most 40 characters. */
  PRODUCER: text(40),
  /** Accuracy class, a decimal number. */
  CLASS: decimal,
  /** Year of manufacture: digits only, at most 4, between 0 and 2199. */
  YMAN: asText
    .pipe(
      z
        .string()
        .regex(/^\d{0,4}$/, 'digits only, at most 4')
        .refine((s) => s === '' || Number(s) <= 2199, 'between 0 and 2199'),
    )
    .optional()
    .default(''),
  /** Rated voltage as printed on the meter, e.g. '3x230/400 V'. */
  VOLTAGE: text(40),
  /** Rated current as printed on the meter, e.g. '5(60) A'. */
  CURRENT: text(40),
  CONTYPE: index(METER_CONNECTIONS),
  ELM_OUTPUT_TYPE: index(METER_INPUT_TYPES),
  MENERGYTYPE: index(METER_ENERGIES),
  CONSTUNIT: index(METER_CONSTANT_UNITS),
  CONSTTYPE: index(METER_CONSTANT_TYPES),
  /** Current transformer ratio (primary / secondary). */
  CTRATIO: decimal,
  /** Voltage transformer ratio (primary / secondary). */
  VTRATIO: decimal,
  /** Current transformer secondary nominal, A. */
  CTSNOM: decimal,
  /** Voltage transformer secondary nominal, V. */
  VTSNOM: decimal,
  IMIN: decimal,
  INOM: decimal,
  IMAX: decimal,
  UNOM: decimal,
  /** Current transformer text '3x{primary}/{secondary} A'. */
  ISIDE: text(40),
  /** Voltage transformer text '3x{primary}/{secondary} V'. */
  USIDE: text(40),
  /** Mains frequency, Hz, non-negative decimal. */
  FREQ: decimal,
  ENERMETHOD: index(METER_METHODS),
  CUSTOMER: text(40),
  AREA: text(40),
  LOCATION: text(40),
  ADDRESS: text(40),
  NOTE1: text(40),
  NOTE2: text(40),
  NOTE3: text(40),
  NOTE4: text(40),
  /** Scale factor applied by the device. */
  SCALEFACTOR: decimal,
  /** 1 when the voltages are phase-to-phase (sqrt 3 applied). */
  SQRT3: decimal,
  /** Dial register digits. */
  DIALREG: decimal,
});
/** The editable fields of a meter as sent. */
export type MeterInputIn = z.input<typeof MeterInput>;
/** The editable fields of a meter after validation. */
export type MeterFields = z.output<typeof MeterInput>;

/** The editable field names of a meter, in canonical order (the order the CRC covers them). */
export const METER_FIELD_KEYS = Object.keys(MeterInput.shape) as (keyof MeterFields)[];

const ENUM_KEYS: ReadonlySet<string> = new Set(Object.keys(METER_ENUM_FIELDS));
const storedFields = Object.fromEntries(
  METER_FIELD_KEYS.map((k) => [k, ENUM_KEYS.has(k) ? z.number().int() : z.string()]),
) as { [K in keyof MeterFields]: MeterFields[K] extends number ? z.ZodNumber : z.ZodString };

/**
 * A stored meter as the list answers it: the editable fields plus the keys the portal keeps:
 * ID_meter (portal id), IDN (id in the device's database), CRC (CRC-32 of the fields, hex),
 * LPCOUNT (stored load points, i.e. test results), MTIME (last change, unix seconds).
 */
export const MeterRow = z.object({
  ...storedFields,
  ID_meter: z.number().int(),
  IDN: z.string(),
  CRC: z.string(),
  LPCOUNT: z.number().int(),
  MTIME: z.number().int(),
});
/** A stored meter as the list answers it. */
export type MeterRow = z.infer<typeof MeterRow>;
/** Answer of POST /applied-precision/meters: the device's meters, last changed first; 610 when none. */
export const MetersListResponse = okWith(z.array(MeterRow));

/** Body of POST /applied-precision/meters (read) and /applied-precision/upload-database, /download-database. */
export const MetersListRequest = z.object({ device_token: DeviceTokenString });
/** Body of POST /applied-precision/meters/add. */
export const MeterAddRequest = z.object({ device_token: DeviceTokenString, meter: MeterInput });
/** Answer of POST /applied-precision/meters/add. */
export const MeterAddResponse = okWith(z.object({ ID_meter: z.number().int() }));
/** Body of PUT /applied-precision/meters (the whole meter, as the list shows it after the edit). */
export const MeterEditRequest = z.object({
  device_token: DeviceTokenString,
  ID_meter: z.coerce.number().int().positive(),
  meter: MeterInput,
});
/** Body of DELETE /applied-precision/meters. */
export const MeterDeleteRequest = z.object({
  device_token: DeviceTokenString,
  ID_meter: z.coerce.number().int().positive(),
});
/** Body of POST /applied-precision/upload-database and /download-database. */
export const MeterDatabaseRequest = z.object({ device_token: DeviceTokenString, meters: z.literal(true) });
/** Body of POST /applied-precision/test-result and /applied-precision/images/list. */
export const MeterRefRequest = z.object({
  device_token: DeviceTokenString,
  ID_meter: z.coerce.number().int().positive(),
});
/** Answer of POST /applied-precision/upload-database and /download-database: meters transferred. */
export const MeterDatabaseResponse = okWith(z.object({ count: z.number().int().nonnegative() }));

/** Image types a meter may have and the largest size, in bytes (seed 001 section 5). */
export const METER_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;
/** File name extensions accepted for meter images. */
export const METER_IMAGE_EXTENSIONS = ['png', 'jpeg', 'jpg'] as const;
/** Largest meter image, bytes. */
export const METER_IMAGE_MAX_BYTES = 1_000_000;
/** Most images one upload may carry. */
export const METER_IMAGE_MAX_FILES = 10;

/** A stored meter image. */
export const MeterImage = z.object({
  ID_image: z.number().int(),
  name: z.string(),
  type: z.enum(METER_IMAGE_TYPES),
  size: z.number().int(),
});
/** A stored meter image. */
export type MeterImage = z.infer<typeof MeterImage>;
/** Answer of POST /applied-precision/images/list: the meter's images, oldest first. */
export const MeterImagesResponse = okWith(z.array(MeterImage));
/** Answer of POST /applied-precision/images (multipart): ids of the stored images, in upload order. */
export const MeterImagesAddResponse = okWith(z.object({ ID_image: z.array(z.number().int()) }));
/** Path parameter of GET /applied-precision/images/:ID_image. */
export const MeterImageParams = z.object({ ID_image: z.coerce.number().int().positive() });
/** Query of GET /applied-precision/images/:ID_image (the browser loads it as an image URL). */
export const MeterImageQuery = z.object({ device_token: DeviceTokenString });
/** Text fields of the multipart upload to POST /applied-precision/images. */
export const MeterImagesUploadFields = z.object({
  device_token: DeviceTokenString,
  meter_ID: z.coerce.number().int().positive(),
});

const num = z.number().finite().optional();
const phases = <P extends string>(prefix: P) =>
  ({ [`${prefix}1`]: num, [`${prefix}2`]: num, [`${prefix}3`]: num }) as Record<
    `${P}${1 | 2 | 3}`,
    typeof num
  >;

/**
 * One accuracy test (load point) of a customer's meter, measured by the precision device against
 * its reference. Per-phase quantities carry the suffix 1 to 3; totals the suffix SUM.
 * Units: V, A, degrees, W, var, VA, Wh, varh, VAh, Hz, %, seconds.
 */
export const MeterTestResult = z.looseObject({
  /** Meter under test (its IDN in the device's database). */
  IDN: z.string().min(1).max(64),
  /** Test time, unix seconds. */
  MTIME: z.number().int().nonnegative(),
  /** Meter error, %. */
  ERROR: z.number().finite(),
  /** Standard deviation of the error, %. */
  METERSTDEV: num,
  /** Number of samples the error is averaged over. */
  TESTSAMPLES: z.number().int().nonnegative().optional(),
  /** Integration time, s. */
  INTTIME: num,
  /** Energy type tested (index into METER_ENERGIES). */
  MENERGYTYPE: num,
  /** Pulse input type (index into METER_INPUT_TYPES). */
  ELM_OUTPUT_TYPE: num,
  /** Meter constant used. */
  METERCONST: num,
  /** Connection (index into METER_CONNECTIONS). */
  CONTYPE: num,
  /** Voltage per phase, V. */
  ...phases('MCHNLA'),
  /** Current per phase, A. */
  ...phases('MCHNLB'),
  /** Power factor per phase. */
  ...phases('MPOWFACT'),
  /** Voltage angle per phase, degrees (L1 is 0; sorting them gives the phase sequence). */
  ...phases('MPHA'),
  /** Current angle per phase, degrees. */
  ...phases('MPHB'),
  /** Voltage distortion per phase, % THD. */
  ...phases('DFA'),
  /** Current distortion per phase, % THD. */
  ...phases('DFB'),
  /** Phase-to-phase voltage L1-L2, L2-L3, L3-L1, V. */
  ...phases('UPP'),
  /** Angle between voltage and current per phase, degrees. */
  ...phases('PH'),
  /** Mains frequency, Hz. */
  MFREQ: num,
  /** Active, reactive and apparent power per phase and summed (W, var, VA). */
  ...phases('MPOWER'),
  MPOWERSUM: num,
  ...phases('MQPOWER'),
  MQPOWERSUM: num,
  ...phases('MSPOWER'),
  MSPOWERSUM: num,
  /** Active, reactive and apparent energy during the test per phase and summed (Wh, varh, VAh). */
  ...phases('MENERGY'),
  MENERGYSUM: num,
  ...phases('MQENERGY'),
  MQENERGYSUM: num,
  ...phases('MSENERGY'),
  MSENERGYSUM: num,
  /** Maximum demand period, s, and its number of sub-periods. */
  MDPERIOD: num,
  MDSUBPERIODS: num,
  /** Last maximum-demand reset, unix seconds. */
  MDLASTRESET: num,
  /** Fixed-window maximum demand: active W, reactive var, apparent VA. */
  MDFIXP: num,
  MDFIXQ: num,
  MDFIXS: num,
  /** Sliding-window maximum demand: active W, reactive var, apparent VA. */
  MDSLIDP: num,
  MDSLIDQ: num,
  MDSLIDS: num,
});
/** One accuracy test result. */
export type MeterTestResult = z.infer<typeof MeterTestResult>;

/** Answer of POST /applied-precision/test-result: the meter's tests, newest first, each with its ID_test. */
export const MeterTestsResponse = okWith(z.array(MeterTestResult.extend({ ID_test: z.number().int() })));
