import type { HierarchyNode } from './devices';

/** How folder names are compared: trimmed and without regard to letter case. */
export function folderNameKey(title: string): string {
  return title.trim().toLocaleLowerCase();
}

/**
 * The first folder name used twice among the folders of one level (the top level or one folder's
 * children), or null. Devices are not folders: a device may share a folder's or another device's
 * name.
 */
export function duplicateFolderName(nodes: readonly HierarchyNode[]): string | null {
  const seen = new Set<string>();
  for (const n of nodes) {
    if (n.isLeaf || n.data.mac) continue;
    const k = folderNameKey(n.title);
    if (seen.has(k)) return n.title.trim();
    seen.add(k);
  }
  for (const n of nodes) {
    const inner = n.children ? duplicateFolderName(n.children) : null;
    if (inner !== null) return inner;
  }
  return null;
}
