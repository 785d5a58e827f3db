// Demo mode: the demo precision analyzers start with their meter database in the portal and a
// few weeks of accuracy tests, built from the same model the live simulator runs, so the meter
// list and test screens have data at once.
import { buildTestResult, createMeterModel, factoryMeters, meterProfile } from '@meterportal/simulator';
import type { Clock } from '../clock';
import type { MetersRepository, TestWrite } from './meters.repository';
import { canonicalFields, meterCrc, parseDeviceRecord } from './meters-fns';

/** A demo precision analyzer as stored. */
export interface DemoAnalyzer {
  id: number;
  mac: string;
  phases?: 1 | 2 | 3;
}

/** Tests stored per meter, one every other day going back. */
export const DEMO_TESTS_PER_METER = 12;
/** Integration time of the demo tests, s. */
const DEMO_INTTIME_SEC = 60;

/** What was seeded. */
export interface DemoMetersReport {
  devices: number;
  meters: number;
  tests: number;
}

/**
 * Seeds each analyzer that has never had meters or tests: its factory meter database and
 * DEMO_TESTS_PER_METER tests per meter over the past weeks. Analyzers with any stored meter or
 * test are left alone, so a second start adds nothing.
 */
export async function seedDemoMeters(
  deps: { repo: MetersRepository; clock: Clock },
  analyzers: readonly DemoAnalyzer[],
): Promise<DemoMetersReport> {
  const { repo, clock } = deps;
  const report: DemoMetersReport = { devices: 0, meters: 0, tests: 0 };
  const nowSec = Math.floor(clock.nowMs() / 1000);
  const today = nowSec - (nowSec % 86400);
  for (const a of analyzers) {
    if ((await repo.usedIdns(a.id)).length > 0) continue;
    const records = factoryMeters();
    const meters = records.map((r) => {
      const p = parseDeviceRecord(r);
      if (!p.ok) throw new Error(`factory meter ${r.IDN} is invalid: ${p.error}`);
      return {
        idn: p.idn,
        fields: canonicalFields(p.fields),
        crc: meterCrc(p.fields),
        mtimeSec: p.mtimeSec ?? nowSec,
      };
    });
    await repo.replaceAll(a.id, meters);
    const profile = meterProfile(3, a.mac, a.phases);
    const model = createMeterModel(profile);
    const tests: TestWrite[] = [];
    records.forEach((meter, k) => {
      for (let i = 0; i < DEMO_TESTS_PER_METER; i++) {
        // Mornings on the bench, every other day, each meter at its own hour.
        const tsSec = today - (2 * i + 1) * 86400 + (8 + k) * 3600 + 600 * (i % 4);
        const result = buildTestResult({
          meter,
          instant: model.sample(tsSec),
          tsSec,
          intTimeSec: DEMO_INTTIME_SEC,
          seed: profile.seed,
        });
        tests.push({
          deviceId: a.id,
          idn: meter.IDN,
          mtimeSec: tsSec,
          result: JSON.stringify(result),
          receivedAtMs: tsSec * 1000,
        });
      }
    });
    await repo.insertTests(tests);
    report.devices += 1;
    report.meters += meters.length;
    report.tests += tests.length;
  }
  return report;
}
