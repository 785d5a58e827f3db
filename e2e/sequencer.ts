// Splits the browser files between shards by how long each took (e2e/durations.json, seconds),
// longest first onto the shard with the least so far, so the shards end at about the same time.
// A file not listed counts as the median of those listed.
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const durations = JSON.parse(fs.readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<
  string,
  number
>;

/** Shard `index` (1-based) of `count`: the files it runs. */
export function balancedShard<T>(
  files: readonly T[],
  name: (f: T) => string,
  index: number,
  count: number,
): T[] {
  const known = Object.values(durations).sort((a, b) => a - b);
  const median = known.length ? known[Math.floor(known.length / 2)]! : 1;
  const weight = (f: T) => durations[name(f)] ?? median;
  const byWeight = [...files].sort((a, b) => weight(b) - weight(a) || name(a).localeCompare(name(b)));
  const loads = new Array<number>(count).fill(0);
  const mine: T[] = [];
  for (const f of byWeight) {
    const lightest = loads.indexOf(Math.min(...loads));
    loads[lightest]! += weight(f);
    if (lightest === index - 1) mine.push(f);
  }
  return mine;
}

export default class BalancedSequencer extends BaseSequencer {
  override shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.ctx.config.shard!;
    return Promise.resolve(balancedShard(files, (f) => path.basename(f.moduleId), index, count));
  }
}
