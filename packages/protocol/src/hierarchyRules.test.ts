import { describe, expect, it } from 'vitest';
import type { HierarchyNode } from './devices';
import { duplicateFolderName } from './hierarchyRules';

const folder = (title: string, children: HierarchyNode[] = []): HierarchyNode => ({
  title,
  isLeaf: false,
  data: { id: title },
  children,
});
const device = (title: string, mac: string): HierarchyNode => ({
  title,
  isLeaf: true,
  data: { id: mac, mac },
});

describe('duplicateFolderName', () => {
  it.each<[string, HierarchyNode[], string | null]>([
    ['distinct names', [folder('A'), folder('B')], null],
    ['one name at the top level', [folder('Lab'), folder('Lab')], 'Lab'],
    ['one name in other letter case and spacing', [folder('x', [folder('Lab'), folder(' lab ')])], 'lab'],
    ['one name on different levels', [folder('Lab', [folder('Lab')])], null],
    ['a device named like a folder', [folder('Lab'), device('Lab', '02-00-00-00-00-01')], null],
    [
      'two devices of one name',
      [device('Meter', '02-00-00-00-00-01'), device('Meter', '02-00-00-00-00-02')],
      null,
    ],
  ])('%s answers %j', (_what, nodes, expected) => {
    expect(duplicateFolderName(nodes)).toBe(expected);
  });
});
