// Demo mode: the seeded devices come alive as virtual meters inside the server process, logging
// in to the broker with freshly issued credentials like real meters, after their history (and
// the analyzers' meter databases and tests) has been backfilled so every screen has data from
// the first start.
import { createFleet, type Fleet } from '@meterportal/simulator';
import type { DeviceTypeId } from '@meterportal/protocol';
import type { Database } from '../db/database';
import type { Clock } from '../clock';
import type { Logger } from '../telemetry/burst-log';
import { backfillHistory, type BackfillReport } from '../telemetry/backfill';
import { metersRepository } from '../precision/meters.repository';
import { seedDemoMeters, type DemoMetersReport } from '../precision/demo-meters';
import type { DeviceLink } from './device-link';
import { DEFAULT_TZ } from '../config/config';
import { backfillDemoSpectra, plantDemoPowerQualityWeek } from '../powerquality/planted-week';
import { harmonicsRepository } from '../powerquality/harmonics.repository';
import { historyRepository } from '../history/history.repository';

/** Days of demo spectra written on the first start: the days of backfilled minute profiles. */
const DEMO_SPECTRA_DAYS = 14;

/** A demo device as stored. */
export interface DemoFleetDevice {
  id: number;
  mac: string;
  type: DeviceTypeId;
  phases: 1 | 2 | 3;
}

/** What the demo fleet needs. */
export interface DemoFleetDeps {
  database: Database;
  link: DeviceLink;
  logger: Logger;
  clock: Clock;
  /** Broker the meters connect to: the embedded one or MQTT_URL. */
  brokerUrl: string;
  /** Seconds between an analyzer's accuracy tests. */
  accuTestPeriodSec: number;
  /** The installation's time zone (config TZ): the planted power-quality week is a local week. */
  tz?: string;
}

/** Backfills history where missing, then starts one virtual meter per device. */
export async function startDemoFleet(
  deps: DemoFleetDeps,
  devices: readonly DemoFleetDevice[],
): Promise<{ fleet: Fleet; backfill: BackfillReport; meters: DemoMetersReport }> {
  const backfill = await backfillHistory(
    { repository: deps.link.repository, clock: deps.clock, logger: deps.logger },
    devices,
  );
  const meters = await seedDemoMeters(
    { repo: metersRepository(deps.database), clock: deps.clock },
    devices.filter((d) => d.type === 3),
  );
  const analyzers = devices.filter((d) => d.type === 3);
  const harmonics = harmonicsRepository(deps.database);
  await plantDemoPowerQualityWeek(
    {
      repository: deps.link.repository,
      history: historyRepository(deps.database),
      harmonics,
      clock: deps.clock,
      tz: deps.tz ?? DEFAULT_TZ,
    },
    analyzers,
  );
  // Spectra as far back as the minute profiles, so the recent weeks' harmonics are judged at once.
  await backfillDemoSpectra({ harmonics, clock: deps.clock }, analyzers, DEMO_SPECTRA_DAYS);
  // The secrets are kept only hashed, so each start issues new ones to the in-process meters.
  const withCredentials = await Promise.all(
    devices.map(async (d) => ({
      mac: d.mac,
      type: d.type,
      phases: d.phases,
      ...(await deps.link.credentials.issue(d.id, d.mac)),
    })),
  );
  const fleet = createFleet({
    brokerUrl: deps.brokerUrl,
    devices: withCredentials,
    accuTest: { periodSec: deps.accuTestPeriodSec },
    log: (line) => deps.logger.debug({ line }, 'demo meter'),
  });
  deps.logger.info({ devices: devices.length }, 'demo fleet started');
  return { fleet, backfill, meters };
}
