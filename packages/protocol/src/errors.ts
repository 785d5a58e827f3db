/**
 * Error codes carried in `{ status: 'ERROR', code, message }`. The seeds fix 529, 603, 604, 610,
 * 616 and the websocket codes 714 to 722; the rest are this portal's own and listed in docs/api.md.
 */
export const ErrorCode = {
  /** The device must be online for this action (adding a meter). */
  DeviceOffline: 529,
  /** The request body or query does not match the contract. */
  InvalidRequest: 600,
  /** No valid session: missing, expired, or cookie and token disagree. */
  Unauthenticated: 601,
  /** The session is valid but the action is not allowed to this user. */
  Forbidden: 602,
  /** Local sign-in with a wrong login or password. */
  LoginIncorrect: 603,
  /** The device did not answer a command in time or is offline. */
  DeviceNotResponding: 604,
  /** The device or object does not exist or is not visible to this user. */
  NotFound: 605,
  /** Too many failed sign-ins; try again later. */
  TooManyAttempts: 606,
  /** The object already exists. */
  Conflict: 608,
  /** The request body is larger than allowed. */
  PayloadTooLarge: 609,
  /** The query is valid but nothing is stored for it. */
  DataNotFound: 610,
  /** Too many history reads of one session at once; the answer says to wait for the running ones. */
  TooManyReads: 611,
  /** Identity-provider sign-in failed verification. */
  IdentityProviderLogin: 616,
  /** Unexpected server failure. */
  Internal: 699,
  /** Websocket: the session is missing or expired. */
  WsSessionInvalid: 714,
  /** Websocket: the device token is invalid or the device is not assigned. */
  WsDeviceDenied: 716,
  /** Websocket: the assignment expired or was removed while streaming. */
  WsAssignmentEnded: 720,
  /** Websocket: the message is malformed. */
  WsBadMessage: 722,
} as const;
/** One of the portal's error codes. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** HTTP status that goes with each REST error code. */
export const ERROR_HTTP_STATUS: Record<number, number> = {
  [ErrorCode.DeviceOffline]: 409,
  [ErrorCode.InvalidRequest]: 400,
  [ErrorCode.Unauthenticated]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.LoginIncorrect]: 401,
  [ErrorCode.DeviceNotResponding]: 504,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.TooManyAttempts]: 429,
  [ErrorCode.TooManyReads]: 429,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.DataNotFound]: 404,
  [ErrorCode.IdentityProviderLogin]: 401,
  [ErrorCode.Internal]: 500,
};
