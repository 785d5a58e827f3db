import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';

/**
 * One place that raises toasts, snackbars and dialogs. Themed instances come from antd's hooks;
 * the providers register the toast ones and the shell the dialog one (dialogs are only used once
 * signed in, so the sign-in page does not load them).
 */

/** Toast default 7500 ms, login error 5000 ms, snackbar 5000 ms (seed 000 section 9). */
export const TOAST_MS = 7500;
export const LOGIN_TOAST_MS = 5000;
export const SNACKBAR_MS = 5000;
export const SUCCESS_DIALOG_MS = 2000;

let messageApi: MessageInstance | undefined;
let notificationApi: NotificationInstance | undefined;
let modalApi: ModalHookAPI | undefined;

export function registerToasts(m: MessageInstance, n: NotificationInstance): void {
  messageApi = m;
  notificationApi = n;
}

export function registerModal(modal: ModalHookAPI | undefined): void {
  modalApi = modal;
}

export function getModal(): ModalHookAPI | undefined {
  return modalApi;
}

/** A toast at the top right. */
export function toast(
  kind: 'error' | 'success' | 'info' | 'warning',
  text: string,
  durationMs = TOAST_MS,
  key?: string,
): void {
  notificationApi?.[kind]({
    title: text,
    duration: durationMs / 1000,
    placement: 'topRight',
    ...(key ? { key } : {}),
  });
}

/** A short message at the bottom of the screen. */
export function snackbar(
  kind: 'error' | 'success' | 'info' | 'warning',
  text: string,
  durationMs = SNACKBAR_MS,
): void {
  void messageApi?.open({ type: kind, content: text, duration: durationMs / 1000 });
}

/** Drops every open toast (a stale sign-in error must not follow the user into the app). */
export function clearToasts(): void {
  notificationApi?.destroy();
}
