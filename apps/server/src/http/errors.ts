import { ErrorCode, type ErrorCodeValue } from '@meterportal/protocol';

/** A failure with a portal error code; the error handler turns it into the envelope. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCodeValue,
    message: string,
  ) {
    super(message);
  }
}

/** The request does not match the contract. */
export class InvalidRequest extends AppError {
  constructor(message: string) {
    super(ErrorCode.InvalidRequest, message);
  }
}

/** An error class of one code whose message may be left to the code's usual text. */
function coded(code: ErrorCodeValue, defaultMessage: string) {
  return class extends AppError {
    constructor(message = defaultMessage) {
      super(code, message);
    }
  };
}

/** No valid session. */
export const Unauthenticated = coded(ErrorCode.Unauthenticated, 'Not signed in or session expired');
/** Signed in, but not allowed. */
export const Forbidden = coded(ErrorCode.Forbidden, 'Not allowed');
/** Missing, or not visible to this user: both answer the same. */
export const NotFound = coded(ErrorCode.NotFound, 'Not found');
/** Valid query, nothing stored. */
export const DataNotFound = coded(ErrorCode.DataNotFound, 'Data not found');
/** Wrong local credentials. */
export const LoginIncorrect = coded(ErrorCode.LoginIncorrect, 'Login credentials incorrect');
/** Identity-provider token rejected. */
export const IdentityProviderLoginFailed = coded(
  ErrorCode.IdentityProviderLogin,
  'Login credentials incorrect',
);
/** The session already runs as many history reads as it may, with as many waiting. */
export const TooManyReads = coded(
  ErrorCode.TooManyReads,
  'Too many history reads at once for this session; wait for the running ones to finish',
);
/** The object already exists. */
export const Conflict = coded(ErrorCode.Conflict, 'Object already exists');
/** The device is offline. */
export const DeviceOffline = coded(ErrorCode.DeviceOffline, 'Device is offline');
/** The device did not answer. */
export const DeviceNotResponding = coded(
  ErrorCode.DeviceNotResponding,
  'Device not responding or is offline',
);
/** The request or one of its parts is larger than allowed. */
export const PayloadTooLarge = coded(ErrorCode.PayloadTooLarge, 'Request body too large');

/** Too many failed sign-ins; the answer says when to try again. */
export class TooManyAttempts extends AppError {
  constructor(readonly retryAfterSec: number) {
    super(ErrorCode.TooManyAttempts, `Too many failed sign-ins, try again in ${retryAfterSec} s`);
  }
}
