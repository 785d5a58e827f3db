import {
  HIERARCHY_NAME_MAX,
  TAG_TEXT_MAX,
  type DeviceListEntry,
  type HierarchyMenu,
  type HierarchyNode,
  type HierarchyTag,
  folderNameKey,
} from '@meterportal/protocol';

/**
 * Pure operations on the device hierarchy (seed 000 sections 3, 4 and 5). Every function returns
 * new arrays so the query cache can hold the tree immutably and React sees each change.
 */

export type DropPosition = 'before' | 'after' | 'inside';

/** Text shortened to max characters, with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Stable key of a node: devices by mac, folders by id. */
export function nodeKey(node: HierarchyNode): string {
  if (node.key) return node.key;
  return node.isLeaf && node.data.mac ? `d:${node.data.mac}` : `f:${String(node.data.id)}`;
}

/** A valid hierarchy name: trimmed, 1 to 24 characters. */
export function normalizeName(raw: string): string | null {
  const name = raw.trim();
  return name.length > 0 && name.length <= HIERARCHY_NAME_MAX ? name : null;
}

function walk(
  nodes: HierarchyNode[],
  visit: (n: HierarchyNode, parent: HierarchyNode | null) => void,
  parent: HierarchyNode | null = null,
): void {
  for (const n of nodes) {
    visit(n, parent);
    if (n.children) walk(n.children, visit, n);
  }
}

export function findNode(nodes: HierarchyNode[], key: string): HierarchyNode | undefined {
  let found: HierarchyNode | undefined;
  walk(nodes, (n) => {
    if (!found && nodeKey(n) === key) found = n;
  });
  return found;
}

/** Device leaves in display order. */
export function leaves(nodes: HierarchyNode[]): HierarchyNode[] {
  const out: HierarchyNode[] = [];
  walk(nodes, (n) => {
    if (n.isLeaf) out.push(n);
  });
  return out;
}

export function firstLeafMac(nodes: HierarchyNode[]): string | undefined {
  return leaves(nodes).find((n) => n.data.mac)?.data.mac;
}

export function folderKeys(nodes: HierarchyNode[]): string[] {
  const out: string[] = [];
  walk(nodes, (n) => {
    if (!n.isLeaf) out.push(nodeKey(n));
  });
  return out;
}

function mapTree(nodes: HierarchyNode[], fn: (n: HierarchyNode) => HierarchyNode): HierarchyNode[] {
  return nodes.map((n) => {
    const mapped = fn(n);
    return mapped.children ? { ...mapped, children: mapTree(mapped.children, fn) } : mapped;
  });
}

/** Removes the node with the key; returns the new tree and the removed node. */
export function removeNode(
  nodes: HierarchyNode[],
  key: string,
): { nodes: HierarchyNode[]; removed?: HierarchyNode } {
  let removed: HierarchyNode | undefined;
  const strip = (list: HierarchyNode[]): HierarchyNode[] =>
    list.flatMap((n) => {
      if (nodeKey(n) === key) {
        removed = n;
        return [];
      }
      return n.children ? [{ ...n, children: strip(n.children) }] : [n];
    });
  const next = strip(nodes);
  return removed ? { nodes: next, removed } : { nodes };
}

/** Only empty folders may be deleted (object_not_empty otherwise). */
export function canDeleteFolder(node: HierarchyNode): boolean {
  return !node.isLeaf && (node.children?.length ?? 0) === 0;
}

export function renameNode(nodes: HierarchyNode[], key: string, title: string): HierarchyNode[] {
  return mapTree(nodes, (n) =>
    nodeKey(n) === key ? { ...n, title, data: { ...n.data, isEdited: false } } : n,
  );
}

export function setExpanded(nodes: HierarchyNode[], keys: ReadonlySet<string>): HierarchyNode[] {
  return mapTree(nodes, (n) => (n.isLeaf ? n : { ...n, isExpanded: keys.has(nodeKey(n)) }));
}

/** Next folder id: one above the highest numeric folder id. */
export function nextFolderId(nodes: HierarchyNode[]): number {
  let max = 0;
  walk(nodes, (n) => {
    if (!n.isLeaf && typeof n.data.id === 'number') max = Math.max(max, n.data.id);
  });
  return max + 1;
}

/** Adds an empty folder at the root or inside a folder (which then opens). */
/**
 * A folder title not yet used among the folders of one level: the base, else the base with the
 * lowest free number ("New folder 2"), kept within the name limit.
 */
export function uniqueFolderTitle(siblings: readonly HierarchyNode[], base: string): string {
  const taken = new Set(siblings.filter((n) => !n.isLeaf && !n.data.mac).map((n) => folderNameKey(n.title)));
  if (!taken.has(folderNameKey(base))) return base;
  for (let i = 2; ; i++) {
    const suffix = ` ${i}`;
    const title = `${base.slice(0, HIERARCHY_NAME_MAX - suffix.length).trimEnd()}${suffix}`;
    if (!taken.has(folderNameKey(title))) return title;
  }
}

export function addFolder(
  nodes: HierarchyNode[],
  base: string,
  parentKey?: string,
): { nodes: HierarchyNode[]; key: string; title: string } {
  const id = nextFolderId(nodes);
  const parent = parentKey ? findNode(nodes, parentKey) : undefined;
  const title = uniqueFolderTitle(parent ? (parent.children ?? []) : nodes, base);
  const folder: HierarchyNode = {
    title,
    key: `f:${id}`,
    isLeaf: false,
    isExpanded: false,
    children: [],
    data: { id },
  };
  if (!parentKey) return { nodes: [...nodes, folder], key: folder.key!, title };
  const next = mapTree(nodes, (n) =>
    nodeKey(n) === parentKey && !n.isLeaf
      ? { ...n, isExpanded: true, children: [...(n.children ?? []), folder] }
      : n,
  );
  return { nodes: next, key: folder.key!, title };
}

function contains(node: HierarchyNode, key: string): boolean {
  return (node.children ?? []).some((c) => nodeKey(c) === key || contains(c, key));
}

/**
 * Moves a node before, after or inside another. Refused (tree unchanged) when dropping inside a
 * device, onto itself, or into one of its own descendants.
 */
export function moveNode(
  nodes: HierarchyNode[],
  dragKey: string,
  targetKey: string,
  position: DropPosition,
): HierarchyNode[] {
  if (dragKey === targetKey) return nodes;
  const drag = findNode(nodes, dragKey);
  const target = findNode(nodes, targetKey);
  if (!drag || !target) return nodes;
  if (contains(drag, targetKey)) return nodes;
  if (position === 'inside' && target.isLeaf) return nodes;
  const { nodes: without } = removeNode(nodes, dragKey);
  if (position === 'inside') {
    return mapTree(without, (n) =>
      nodeKey(n) === targetKey ? { ...n, isExpanded: true, children: [...(n.children ?? []), drag] } : n,
    );
  }
  const place = (list: HierarchyNode[]): HierarchyNode[] => {
    const i = list.findIndex((n) => nodeKey(n) === targetKey);
    if (i >= 0) {
      const copy = [...list];
      copy.splice(position === 'before' ? i : i + 1, 0, drag);
      return copy;
    }
    return list.map((n) => (n.children ? { ...n, children: place(n.children) } : n));
  };
  return place(without);
}

function deviceLeaf(d: DeviceListEntry): HierarchyNode {
  const data: HierarchyNode['data'] = { id: d.mac, mac: d.mac, type: d.type };
  if (d.description) data.desc = d.description;
  return { title: (d.title || d.mac).slice(0, HIERARCHY_NAME_MAX), key: `d:${d.mac}`, isLeaf: true, data };
}

function tagFor(d: DeviceListEntry, id: number): HierarchyTag {
  return {
    id,
    title: (d.title || d.mac).slice(0, HIERARCHY_NAME_MAX),
    mac: d.mac,
    tags: [],
    lat: null,
    lng: null,
  };
}

/** Next tag id: the highest plus one. */
export function nextTagId(tags: readonly HierarchyTag[]): number {
  return tags.reduce((max, t) => Math.max(max, t.id), 0) + 1;
}

/** A hierarchy built from the device list when none is saved (code 610). */
export function buildFromDevices(devices: readonly DeviceListEntry[]): HierarchyMenu {
  const sorted = [...devices].sort((a, b) => a.mac.localeCompare(b.mac));
  return { nodes: sorted.map(deviceLeaf), tags: sorted.map((d, i) => tagFor(d, i + 1)) };
}

/**
 * Aligns a saved hierarchy with the current device list: new devices are added at the root,
 * devices no longer assigned are dropped, each device keeps one tag record.
 */
export function syncWithDevices(
  menu: HierarchyMenu,
  devices: readonly DeviceListEntry[],
): { menu: HierarchyMenu; changed: boolean } {
  const macs = new Set(devices.map((d) => d.mac));
  const strip = (list: HierarchyNode[]): HierarchyNode[] =>
    list.flatMap((n) => {
      if (n.isLeaf) return n.data.mac && macs.has(n.data.mac) ? [n] : [];
      return [{ ...n, children: strip(n.children ?? []) }];
    });
  let nodes = strip(menu.nodes);
  const present = new Set(leaves(nodes).map((n) => n.data.mac));
  const added = devices.filter((d) => !present.has(d.mac));
  nodes = [...nodes, ...added.map(deviceLeaf)];
  let tags = menu.tags.filter((t) => macs.has(t.mac));
  const tagged = new Set(tags.map((t) => t.mac));
  for (const d of devices) {
    if (!tagged.has(d.mac)) tags = [...tags, tagFor(d, nextTagId(tags))];
  }
  const changed =
    added.length > 0 ||
    leaves(nodes).length !== leaves(menu.nodes).length ||
    tags.length !== menu.tags.length;
  return { menu: { nodes, tags }, changed };
}

/** Drops a device from the tree and its tag record. */
export function removeDevice(menu: HierarchyMenu, mac: string): HierarchyMenu {
  const strip = (list: HierarchyNode[]): HierarchyNode[] =>
    list.flatMap((n) =>
      n.isLeaf && n.data.mac === mac ? [] : n.children ? [{ ...n, children: strip(n.children) }] : [n],
    );
  return { nodes: strip(menu.nodes), tags: menu.tags.filter((t) => t.mac !== mac) };
}

export function updateTag(
  tags: readonly HierarchyTag[],
  mac: string,
  patch: Partial<Omit<HierarchyTag, 'id' | 'mac'>>,
): HierarchyTag[] {
  return tags.map((t) => (t.mac === mac ? { ...t, ...patch } : t));
}

/** The tree shows a device's first tag, cut to 12 characters plus an ellipsis. */
export function tagLabel(tag: HierarchyTag | undefined): string | undefined {
  const first = tag?.tags[0];
  return first ? truncate(first, TAG_TEXT_MAX) : undefined;
}

/**
 * Turns the tree widget's drop event into a placement: dropPosition is absolute among siblings,
 * so it is compared with the target's own index (the last part of its pos, e.g. '0-2-1').
 */
export function dropPlacement(dropToGap: boolean, dropPosition: number, targetPos: string): DropPosition {
  if (!dropToGap) return 'inside';
  const index = Number(targetPos.split('-').pop());
  return dropPosition - index < 0 ? 'before' : 'after';
}
