import {
  DeviceType,
  ErrorCode,
  METER_IMAGE_MAX_FILES,
  MeterInput,
  OnlineStatus,
  type MeterFields,
  type MeterImage,
  type MeterRow,
  type MeterTestResult,
} from '@meterportal/protocol';
import type { Clock } from '../clock';
import type { DevicesService, SessionUser } from '../devices/devices.service';
import {
  AppError,
  DataNotFound,
  DeviceNotResponding,
  DeviceOffline,
  InvalidRequest,
  NotFound,
  PayloadTooLarge,
} from '../http/errors';
import type { CommandsService } from './commands.service';
import type { MetersRepository, StoredMeter } from './meters.repository';
import {
  canonicalFields,
  checkImage,
  cleanFileName,
  meterCrc,
  nextIdn,
  parseDeviceRecord,
  toDeviceRecord,
  type MeterImageType,
  type UploadedFile,
} from './meters-fns';

/** The device answered the database request with records that are not a valid meter database. */
class DeviceAnswerInvalid extends AppError {
  constructor(detail: string) {
    super(ErrorCode.DeviceNotResponding, `Device sent an invalid meter database: ${detail}`);
  }
}

/** The device's meter database can hold at most this many meters (the command's limit). */
const MAX_METERS_PER_DEVICE = 1000;

/** Meter database, meter images and meter tests of precision devices. */
export function metersService(deps: {
  repo: MetersRepository;
  devices: DevicesService;
  commands: CommandsService;
  clock: Clock;
}) {
  const { repo, devices, commands, clock } = deps;
  const nowSec = () => Math.floor(clock.nowMs() / 1000);

  /** The precision device a token names; any other device answers like a missing one. */
  async function precision(user: SessionUser, token: string) {
    const device = await devices.resolve(user, token);
    if (device.type !== DeviceType.Precision) throw new NotFound('Device not found');
    return device;
  }

  async function meterOf(deviceId: number, meterId: number): Promise<StoredMeter> {
    const m = await repo.find(deviceId, meterId);
    if (!m) throw new NotFound('Meter not found');
    return m;
  }

  async function requireOnline(deviceId: number): Promise<void> {
    if ((await repo.status(deviceId)) !== OnlineStatus.Online) throw new DeviceOffline();
  }

  const fieldsOf = (m: StoredMeter): MeterFields => MeterInput.parse(JSON.parse(m.fields));

  function write(fields: MeterFields, mtimeSec: number) {
    return { fields: canonicalFields(fields), crc: meterCrc(fields), mtimeSec };
  }

  return {
    async list(user: SessionUser, token: string): Promise<MeterRow[]> {
      const d = await precision(user, token);
      const rows = await repo.list(d.id);
      if (rows.length === 0) throw new DataNotFound('No meters stored for this device');
      return rows.map((m) => ({
        ...fieldsOf(m),
        ID_meter: m.id,
        IDN: m.idn,
        CRC: m.crc,
        LPCOUNT: m.tests,
        MTIME: m.mtime_sec,
      }));
    },

    /** Adds a meter while the device is online; the portal gives it the next free IDN. */
    async add(user: SessionUser, token: string, fields: MeterFields): Promise<number> {
      const d = await precision(user, token);
      await requireOnline(d.id);
      // Two adds at once may pick the same IDN; the unique key stops the second, which tries again.
      for (let attempt = 1; ; attempt++) {
        const used = await repo.usedIdns(d.id);
        if (used.length >= MAX_METERS_PER_DEVICE)
          throw new InvalidRequest(`Invalid request: a device holds at most ${MAX_METERS_PER_DEVICE} meters`);
        const idn = nextIdn(used);
        try {
          return await repo.insert(d.id, { idn, ...write(fields, nowSec()) });
        } catch (err) {
          if (attempt >= 5 || !(await repo.usedIdns(d.id)).includes(idn)) throw err;
        }
      }
    },

    async edit(user: SessionUser, token: string, meterId: number, fields: MeterFields): Promise<void> {
      const d = await precision(user, token);
      // MTIME is when the meter entered the database: an edit keeps it, and so its place in the list.
      if (!(await repo.update(d.id, meterId, { fields: canonicalFields(fields), crc: meterCrc(fields) })))
        throw new NotFound('Meter not found');
    },

    async remove(user: SessionUser, token: string, meterId: number): Promise<void> {
      const d = await precision(user, token);
      if (!(await repo.remove(d.id, meterId))) throw new NotFound('Meter not found');
    },

    /** The meter's stored tests, newest first. */
    async tests(
      user: SessionUser,
      token: string,
      meterId: number,
    ): Promise<(MeterTestResult & { ID_test: number })[]> {
      const d = await precision(user, token);
      const m = await meterOf(d.id, meterId);
      const rows = await repo.tests(d.id, m.idn);
      if (rows.length === 0) throw new DataNotFound('No stored load points');
      return rows.map((r) => ({ ...(JSON.parse(r.result) as MeterTestResult), ID_test: r.id }));
    },

    async images(user: SessionUser, token: string, meterId: number): Promise<MeterImage[]> {
      const d = await precision(user, token);
      const m = await meterOf(d.id, meterId);
      const rows = await repo.listImages(m.id);
      return rows.map((r) => ({
        ID_image: r.id,
        name: r.name,
        type: r.content_type as MeterImageType,
        size: r.size_bytes,
      }));
    },

    /** Stores every file or none: one that is too large answers 609, one that is not PNG or JPEG 600. */
    async addImages(
      user: SessionUser,
      token: string,
      meterId: number,
      files: readonly UploadedFile[],
    ): Promise<number[]> {
      const d = await precision(user, token);
      const m = await meterOf(d.id, meterId);
      if (files.length === 0) throw new InvalidRequest('Invalid request: no image file in the upload');
      if (files.length > METER_IMAGE_MAX_FILES)
        throw new InvalidRequest(`Invalid request: at most ${METER_IMAGE_MAX_FILES} images per upload`);
      const accepted = files.map((f) => {
        const c = checkImage(f);
        if (!c.ok)
          throw c.reason === 'too_large'
            ? new PayloadTooLarge(c.message)
            : new InvalidRequest(`Invalid request: ${c.message}`);
        return { name: cleanFileName(f.name), type: c.type, bytes: f.bytes };
      });
      return repo.addImages(m.id, accepted, clock.nowMs());
    },

    async image(
      user: SessionUser,
      token: string,
      imageId: number,
    ): Promise<{ name: string; type: string; bytes: Buffer }> {
      const d = await precision(user, token);
      const img = await repo.image(d.id, imageId);
      if (!img) throw new NotFound('Image not found');
      return { name: img.name, type: img.content_type, bytes: Buffer.from(img.bytes) };
    },

    /** Overwrites the device's meter database with the portal's list; answers how many it stored. */
    async uploadDatabase(user: SessionUser, token: string, signal?: AbortSignal): Promise<number> {
      const d = await precision(user, token);
      await requireOnline(d.id);
      const meters = (await repo.list(d.id)).map((m) =>
        toDeviceRecord({ idn: m.idn, fields: fieldsOf(m), crc: m.crc, mtimeSec: m.mtime_sec }),
      );
      const reply = await commands.call(d.mac, { cmd: 'METERS_DOWNLOAD', meters }, signal);
      if (!(reply.ok && reply.cmd === 'METERS_DOWNLOAD')) throw new DeviceNotResponding();
      return reply.result.count;
    },

    /**
     * Replaces the portal's list with the device's meter database: meters matched by IDN keep
     * their ID_meter and images, the others are added or deleted. Nothing changes unless every
     * record is valid.
     */
    async downloadDatabase(user: SessionUser, token: string, signal?: AbortSignal): Promise<number> {
      const d = await precision(user, token);
      await requireOnline(d.id);
      const reply = await commands.call(d.mac, { cmd: 'METERS_UPLOAD' }, signal);
      if (!(reply.ok && reply.cmd === 'METERS_UPLOAD')) throw new DeviceNotResponding();
      const seen = new Set<string>();
      const now = nowSec();
      const meters = reply.result.meters.map((r) => {
        const p = parseDeviceRecord(r);
        if (!p.ok) throw new DeviceAnswerInvalid(`meter ${p.idn} at ${p.error}`);
        if (seen.has(p.idn)) throw new DeviceAnswerInvalid(`IDN ${p.idn} appears twice`);
        seen.add(p.idn);
        return { idn: p.idn, ...write(p.fields, p.mtimeSec ?? now) };
      });
      await repo.replaceAll(d.id, meters);
      return meters.length;
    },
  };
}
/** Meter database, images and tests. */
export type MetersService = ReturnType<typeof metersService>;
