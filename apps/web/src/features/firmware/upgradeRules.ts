import {
  FINAL_UPGRADE_STATES,
  FIRMWARE_IMAGE_MAX_BYTES,
  type FirmwareVersionEntry,
  type UpgradeEntry,
  type UpgradeState,
} from '@meterportal/protocol';

/** File name endings the server takes as firmware images. */
export const IMAGE_EXTENSIONS = ['.bin', '.hex', '.img', '.fw'] as const;

/** Largest image, MB as the texts show it. */
export const IMAGE_MAX_MB = FIRMWARE_IMAGE_MAX_BYTES / 1_000_000;

/** Why an image cannot be uploaded (a text key), or null. */
export function imageProblem(file: {
  name: string;
  size: number;
}): 'firmware.file_too_large' | 'firmware.file_format' | null {
  if (!IMAGE_EXTENSIONS.some((e) => file.name.toLowerCase().endsWith(e))) return 'firmware.file_format';
  if (file.size > FIRMWARE_IMAGE_MAX_BYTES || file.size === 0) return 'firmware.file_too_large';
  return null;
}

/** True while an upgrade is under way. */
export function isRunning(state: UpgradeState): boolean {
  return !FINAL_UPGRADE_STATES.includes(state);
}

/** Versions a device of this type can be upgraded to: registered for it, not the one it runs. */
export function versionsFor(
  versions: readonly FirmwareVersionEntry[],
  deviceType: number,
  currentFw: string | null,
): FirmwareVersionEntry[] {
  return versions.filter((v) => v.deviceType === deviceType && v.version !== currentFw);
}

/** The progress bar of an upgrade state: active while running, exception for bad outcomes. */
export function progressStatus(state: UpgradeState): 'active' | 'success' | 'exception' | 'normal' {
  switch (state) {
    case 'STARTING':
    case 'UPGRADING':
    case 'REBOOTING':
      return 'active';
    case 'DONE':
      return 'success';
    case 'FAILED':
    case 'TIMEOUT':
    case 'NOT_AVAILABLE':
      return 'exception';
  }
}

/** The latest upgrade, with a live step applied when it is about the same target version. */
export function withLiveStep(
  latest: UpgradeEntry | undefined,
  live: { state: UpgradeState; progress: number; fw: string } | undefined,
): { state: UpgradeState; progress: number; toFw: string } | null {
  if (live && (!latest || (isRunning(latest.state) && latest.toFw === live.fw)))
    return { state: live.state, progress: live.progress, toFw: live.fw };
  return latest ? { state: latest.state, progress: latest.progress, toFw: latest.toFw } : null;
}
