/** Where the identity provider sends the browser back: the login page and the renewal frame. */
export const REDIRECT_PATH = '/login';
export const SILENT_CALLBACK_PATH = '/login/silent';

/** Whether the page was opened by the identity provider's redirect (a code or an error, with state). */
export function isIdpCallback(search: string): boolean {
  const p = new URLSearchParams(search);
  return p.has('state') && (p.has('code') || p.has('error'));
}
