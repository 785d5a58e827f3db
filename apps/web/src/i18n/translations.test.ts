import { describe, expect, it } from 'vitest';
import { englishAreaTexts } from './areaTexts';
import { de } from './de';
import { enCore } from './en.core';
import { en } from './en';
import { sk } from './sk';

type Tree = { [k: string]: string | Tree };

function flatten(t: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(t)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('translations', () => {
  const ref = flatten(en);
  it.each([
    ['sk', sk],
    ['de', de],
  ])('%s has every English key, no empty text and the same placeholders', (_name, lang) => {
    const other = flatten(lang);
    expect([...other.keys()].sort()).toEqual([...ref.keys()].sort());
    for (const [k, v] of other) {
      expect(v.trim(), k).not.toBe('');
      expect(placeholders(v), k).toEqual(placeholders(ref.get(k) ?? ''));
    }
  });

  it('loads every English text once signed in: the core and the area tables', async () => {
    const loaded = flatten({ ...enCore, ...(await englishAreaTexts()) });
    expect([...loaded.keys()].sort()).toEqual([...ref.keys()].sort());
  });

  it('keeps the seed texts exactly in English', () => {
    expect(en.login.credentials_incorrect).toBe('Login credentials incorrect');
    expect(en.login.server_error).toBe('Server communication error');
    expect(en.profile.must_differ).toBe('Passwords must be different');
    expect(en.profile.changed).toBe('Password successfully changed');
    expect(en.shell.online).toBe('You are online');
    expect(en.shell.offline).toBe('You are currently offline');
    expect(en.shell.any_assigned_devices).toBe('Any assigned device');
    expect(en.precision.offline_title).toBe('Device is Offline');
    expect(en.precision.offline_text).toBe('Dashboard will be shown when device will be Online');
    expect(en.precision.harmonics_chart).toBe('Harmonics chart');
    expect(en.precision.waveform_chart).toBe('Waveform chart');
    expect(en.common.device_not_responding).toBe('Device not responding or is offline');
    expect(en.integration.no_tokens).toBe('No tokens available');
    expect(en.integration.copied).toBe('Token copied');
  });
});
