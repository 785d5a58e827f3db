import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/harness';
import { devicesInFolder } from './report-folder';
import { reportFormats } from './report-pdf';
import {
  CAROLS,
  HALL_A,
  HALL_B,
  OFFICE,
  TZ,
  expectPlantMarch,
  folderWorld,
  pdfText,
  plain,
  tree,
  type FolderWorld,
} from './folder-testing';

describe('devices in a folder', () => {
  it.each([
    [['Plant'], [HALL_A, HALL_B, OFFICE]],
    [
      ['plant ', 'HALLS'],
      [HALL_A, HALL_B],
    ],
    [['Plant', 'Office'], null], // a device is not a folder
    [['Halls'], null],
    [['Plant', 'Halls', 'Hall A'], null],
  ])('finds %j', (path, macs) => {
    expect(devicesInFolder(tree(), path)).toEqual(macs);
  });
});

describe.each(DIALECTS)('folder reports on $name', (dialect) => {
  let w: FolderWorld;

  beforeAll(async () => {
    w = await folderWorld(dialect, Date.parse('2026-04-10T10:00:00Z'));
  }, 60_000);
  afterAll(() => w.t.close());

  const read: FolderWorld['read'] = (c, path, body) => w.read(c, path, body);

  it('sums the folder’s devices and lists each one with the numbers of /energy/cost', async () => {
    const r = await read(w.alice, '/reports/folder', { folder: ['Plant'], month: '2026-03', language: 'en' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-disposition']).toContain('folder-Plant-2026-03.pdf');
    const text = pdfText(r.rawPayload);
    const lines = text.split('\n');
    expect(text).toContain('Energy and cost of a folder');
    expect(lines.find((l) => l.includes('Folder:'))).toContain('Plant');
    await expectPlantMarch(w, text, 'en');
    expect(text).toContain('Devices without a tariff count in energy only: 1.');
  });

  it('reports a subfolder alone, in Slovak and German', async () => {
    for (const language of ['sk', 'de'] as const) {
      const r = await read(w.alice, '/reports/folder', {
        folder: ['Plant', 'Halls'],
        month: '2026-03',
        language,
      });
      expect(r.statusCode).toBe(200);
      const text = pdfText(r.rawPayload);
      const f = reportFormats(language, TZ);
      expect(text).toContain(
        language === 'sk' ? 'Energia a náklady priečinka' : 'Energie und Kosten eines Ordners',
      );
      expect(text).toContain(plain(f.wh(w.wh[HALL_A] + w.wh[HALL_B])));
      expect(text).not.toContain(OFFICE);
    }
  });

  it('answers a folder the user does not have as absent and refuses bad input', async () => {
    const missing = await read(w.alice, '/reports/folder', {
      folder: ['Nowhere'],
      month: '2026-03',
      language: 'en',
    });
    const device = await read(w.alice, '/reports/folder', {
      folder: ['Plant', 'Office'],
      month: '2026-03',
      language: 'en',
    });
    // Carol has a folder Plant of her own: she sees her device only, never Alice's.
    const carols = await read(w.carol, '/reports/folder', {
      folder: ['Plant', 'Halls'],
      month: '2026-03',
      language: 'en',
    });
    expect([missing.statusCode, device.statusCode, carols.statusCode]).toEqual([404, 404, 404]);
    expect(carols.json()).toEqual(missing.json());
    const own = pdfText(
      (await read(w.carol, '/reports/folder', { folder: ['Plant'], month: '2026-03', language: 'en' }))
        .rawPayload,
    );
    expect(own).toContain(CAROLS);
    expect(own).not.toContain(HALL_A);
    for (const body of [
      { folder: [], month: '2026-03', language: 'en' },
      { folder: ['Plant'], month: '2026-13', language: 'en' },
      { folder: ['Plant'], month: '2027-01', language: 'en' },
      { folder: ['x'.repeat(25)], month: '2026-03', language: 'en' },
      { folder: 'Plant', month: '2026-03', language: 'en' },
      { folder: ['Plant'], month: '2026-03', language: 'fr' },
    ])
      expect((await read(w.alice, '/reports/folder', body)).statusCode, JSON.stringify(body)).toBe(400);
  });
});
