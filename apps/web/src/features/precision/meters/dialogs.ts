import i18next from 'i18next';
import { SUCCESS_DIALOG_MS, getModal } from '../../../api/notify';

/** An error dialog titled 'error' (seed 001 section 8). */
export function errorDialog(text: string): void {
  getModal()?.error({
    title: i18next.t('meters.error_title'),
    content: text,
    okText: i18next.t('common.ok'),
  });
}

/** A success dialog that closes itself after 2 s (seed 001 section 8). */
export function successDialog(text: string): void {
  const dialog = getModal()?.success({ title: text, okText: i18next.t('common.ok') });
  if (dialog) setTimeout(() => dialog.destroy(), SUCCESS_DIALOG_MS);
}
