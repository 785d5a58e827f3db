import { unixSec } from '@meterportal/protocol';
import type { DeviceListEntry, HierarchyNode } from '@meterportal/protocol';
import { describe, expect, it } from 'vitest';
import {
  addFolder,
  buildFromDevices,
  canDeleteFolder,
  dropPlacement,
  findNode,
  firstLeafMac,
  moveNode,
  nextTagId,
  nodeKey,
  normalizeName,
  removeDevice,
  renameNode,
  syncWithDevices,
  uniqueFolderTitle,
  tagLabel,
} from './tree';

const dev = (mac: string, title = mac): DeviceListEntry => ({
  owner: true,
  mac,
  type: 3,
  token: `sig|${mac.length}`,
  expire: unixSec(1),
  title,
});
const leaf = (mac: string): HierarchyNode => ({
  title: mac,
  key: `d:${mac}`,
  isLeaf: true,
  data: { id: mac, mac, type: 3 },
});
const folder = (id: number, children: HierarchyNode[] = []): HierarchyNode => ({
  title: `F${id}`,
  key: `f:${id}`,
  isLeaf: false,
  children,
  data: { id },
});
const keys = (nodes: HierarchyNode[]): unknown[] =>
  nodes.map((n) => (n.children ? [nodeKey(n), keys(n.children)] : nodeKey(n)));

describe('hierarchy names', () => {
  it.each([
    ['  Kitchen ', 'Kitchen'],
    ['x'.repeat(24), 'x'.repeat(24)],
    ['x'.repeat(25), null],
    ['   ', null],
  ])('normalizes %j to %j', (raw, expected) => {
    expect(normalizeName(raw)).toBe(expected);
  });
});

describe('tree operations', () => {
  const tree = [folder(1, [leaf('A'), folder(2, [leaf('B')])]), leaf('C'), folder(3)];

  it('adds folders with increasing ids at the root or inside a folder', () => {
    const { nodes, key } = addFolder(tree, 'New', 'f:1');
    expect(key).toBe('f:4');
    expect(findNode(nodes, 'f:1')?.children?.map(nodeKey)).toEqual(['d:A', 'f:2', 'f:4']);
    expect(findNode(nodes, 'f:1')?.isExpanded).toBe(true);
  });

  it('names a new folder so that no folder of its level has its name', () => {
    const level = [folder(1), { ...folder(2), title: 'new folder' }, { ...folder(3), title: 'New folder 2' }];
    expect(addFolder(level, 'New folder').title).toBe('New folder 3');
    expect(addFolder(level, 'New folder', 'f:1').title).toBe('New folder');
    // A device named like the folder does not take the name.
    expect(uniqueFolderTitle([{ ...leaf('A'), title: 'Lab' }], 'Lab')).toBe('Lab');
    const long = 'x'.repeat(24);
    expect(uniqueFolderTitle([{ ...folder(4), title: long }], long)).toBe(`${'x'.repeat(22)} 2`);
  });

  it('deletes only empty folders', () => {
    expect(canDeleteFolder(findNode(tree, 'f:3')!)).toBe(true);
    expect(canDeleteFolder(findNode(tree, 'f:1')!)).toBe(false);
    expect(canDeleteFolder(findNode(tree, 'd:C')!)).toBe(false);
  });

  it('renames a node and leaves edit mode', () => {
    const renamed = renameNode(tree, 'f:2', 'Hall');
    expect(findNode(renamed, 'f:2')?.title).toBe('Hall');
    expect(findNode(renamed, 'f:2')?.data.isEdited).toBe(false);
    expect(findNode(tree, 'f:2')?.title).toBe('F2');
  });

  it('moves before, after and inside', () => {
    expect(keys(moveNode(tree, 'd:C', 'f:1', 'before'))).toEqual([
      'd:C',
      ['f:1', ['d:A', ['f:2', ['d:B']]]],
      ['f:3', []],
    ]);
    expect(keys(moveNode(tree, 'd:A', 'd:C', 'after'))).toEqual([
      ['f:1', [['f:2', ['d:B']]]],
      'd:C',
      'd:A',
      ['f:3', []],
    ]);
    expect(keys(moveNode(tree, 'd:B', 'f:3', 'inside'))).toEqual([
      ['f:1', ['d:A', ['f:2', []]]],
      'd:C',
      ['f:3', ['d:B']],
    ]);
  });

  it('refuses to drop into a device or into its own descendant', () => {
    expect(moveNode(tree, 'f:3', 'd:C', 'inside')).toBe(tree);
    expect(moveNode(tree, 'f:1', 'f:2', 'inside')).toBe(tree);
    expect(moveNode(tree, 'f:1', 'f:1', 'after')).toBe(tree);
  });

  it('finds the first remaining leaf in display order', () => {
    expect(firstLeafMac(tree)).toBe('A');
    expect(firstLeafMac(removeDevice({ nodes: tree, tags: [] }, 'A').nodes)).toBe('B');
  });
});

describe('hierarchy and device list', () => {
  it('builds one leaf and one tag per device when none is saved', () => {
    const menu = buildFromDevices([
      dev('02-00-00-00-00-02', 'Second'),
      dev('01-00-00-00-00-01', 'A very long device title indeed'),
    ]);
    expect(menu.nodes.map((n) => n.data.mac)).toEqual(['01-00-00-00-00-01', '02-00-00-00-00-02']);
    expect(menu.nodes[0]!.title).toHaveLength(24);
    expect(menu.tags.map((t) => t.id)).toEqual([1, 2]);
  });

  it('adds new devices, drops missing ones and keeps folders', () => {
    const saved = {
      nodes: [folder(1, [leaf('A'), leaf('B')])],
      tags: [{ id: 7, title: 'A', mac: 'A', tags: ['x'] }],
    };
    const { menu, changed } = syncWithDevices(saved, [dev('A'), dev('C')]);
    expect(changed).toBe(true);
    expect(keys(menu.nodes)).toEqual([['f:1', ['d:A']], 'd:C']);
    expect(menu.tags.map((t) => [t.mac, t.id])).toEqual([
      ['A', 7],
      ['C', 8],
    ]);
    expect(syncWithDevices(menu, [dev('A'), dev('C')]).changed).toBe(false);
  });

  it('numbers tags from the highest id plus one', () => {
    expect(nextTagId([])).toBe(1);
    expect(
      nextTagId([
        { id: 3, title: 't', mac: 'm', tags: [] },
        { id: 9, title: 't', mac: 'n', tags: [] },
      ]),
    ).toBe(10);
  });

  it('shows the first tag cut to 12 characters plus an ellipsis', () => {
    expect(tagLabel({ id: 1, title: 't', mac: 'm', tags: ['Production hall', 'b'] })).toBe('Production h…');
    expect(tagLabel({ id: 1, title: 't', mac: 'm', tags: ['Roof'] })).toBe('Roof');
    expect(tagLabel({ id: 1, title: 't', mac: 'm', tags: [] })).toBeUndefined();
  });
});

describe('drop events', () => {
  it.each([
    [false, 2, '0-2', 'inside'],
    [true, 1, '0-2', 'before'],
    [true, 3, '0-2', 'after'],
    [true, -1, '0-1-0', 'before'],
  ] as const)('gap %s position %i on %s is %s', (gap, pos, target, expected) => {
    expect(dropPlacement(gap, pos, target)).toBe(expected);
  });
});
