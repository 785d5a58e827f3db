import {
  DeviceType,
  FOLDER_REPORT_KINDS,
  MESSAGE_LANGUAGES,
  REPORT_KINDS,
  type FolderReportKind,
  type HierarchyNode,
  type MessageLanguage,
  type ReportKind,
} from '@meterportal/protocol';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/format';
import { useDeviceList } from '../auth/session';
import { useHierarchyQuery } from '../devices/api';

/** The interface language as a report language. */
export function interfaceLanguage(): MessageLanguage {
  const l = currentLanguage();
  return MESSAGE_LANGUAGES.find((m) => l.startsWith(m)) ?? 'en';
}

/** The user's devices as select options: token and title with MAC. */
export function useDeviceOptions() {
  const devices = useDeviceList();
  return devices.map((d) => ({ value: d.token, label: d.title ? `${d.title} (${d.mac})` : d.mac }));
}

/** The kinds of report a device has: power quality only for analyzers (type 3). */
export function useKindOptions(token: string | undefined) {
  const { t } = useTranslation();
  const analyzer = useDeviceList().find((d) => d.token === token)?.type === DeviceType.Precision;
  return REPORT_KINDS.filter((k) => k !== 'POWER_QUALITY' || analyzer).map((k) => ({
    value: k,
    label: t(`reports.kind_${k}`),
  }));
}

/** The kinds of a folder's report as select options. */
export function useFolderKindOptions() {
  const { t } = useTranslation();
  return FOLDER_REPORT_KINDS.map((k) => ({ value: k, label: t(`reports.kind_${k}`) }));
}

/** A report kind as a folder report's kind; energy and cost for one a folder does not have. */
export const asFolderKind = (kind: ReportKind): FolderReportKind =>
  FOLDER_REPORT_KINDS.find((k) => k === kind) ?? 'ENERGY_COST';

/** The label of a schedule's or kept report's kind: a folder's says it is a folder's. */
export function useKindLabel() {
  const { t } = useTranslation();
  return (r: { kind: ReportKind; folder: readonly string[] | null }) =>
    r.folder ? t(`reports.kind_FOLDER_${asFolderKind(r.kind)}`) : t(`reports.kind_${r.kind}`);
}

/** The report languages as select options. */
export function useLanguageOptions() {
  const { t } = useTranslation();
  return MESSAGE_LANGUAGES.map((l) => ({ value: l, label: t(`reports.language_${l}`) }));
}

/** Every folder of the tree as its path of names from the top level, in tree order. */
export function folderPaths(nodes: readonly HierarchyNode[], above: string[] = []): string[][] {
  return nodes.flatMap((n) => {
    if (n.isLeaf || n.data.mac) return [];
    const path = [...above, n.title];
    return [path, ...folderPaths(n.children ?? [], path)];
  });
}

/** A folder path as a select value, and back. */
export const folderValue = (path: readonly string[]) => JSON.stringify(path);
export const pathOf = (value: string) => JSON.parse(value) as string[];

/** The folders of the user's tree as select options (value: the path as JSON, label: a / b). */
export function useFolderOptions() {
  const hierarchy = useHierarchyQuery();
  const options = useMemo(
    () =>
      folderPaths(hierarchy.data?.nodes ?? []).map((p) => ({ value: folderValue(p), label: p.join(' / ') })),
    [hierarchy.data],
  );
  return { options, loading: hierarchy.isLoading };
}
