/** Where the identity provider sends the browser back: the login page and the renewal frame. */
export const REDIRECT_PATH = '/login';
export const SILENT_CALLBACK_PATH = '/login/silent';
