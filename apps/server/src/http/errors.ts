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
/** No valid session. */
export class Unauthenticated extends AppError {
  constructor(message = 'Not signed in or session expired') {
    super(ErrorCode.Unauthenticated, message);
  }
}
/** Signed in, but not allowed. */
export class Forbidden extends AppError {
  constructor(message = 'Not allowed') {
    super(ErrorCode.Forbidden, message);
  }
}
/** Missing, or not visible to this user: both answer the same. */
export class NotFound extends AppError {
  constructor(message = 'Not found') {
    super(ErrorCode.NotFound, message);
  }
}
/** Valid query, nothing stored. */
export class DataNotFound extends AppError {
  constructor(message = 'Data not found') {
    super(ErrorCode.DataNotFound, message);
  }
}
/** Wrong local credentials. */
export class LoginIncorrect extends AppError {
  constructor() {
    super(ErrorCode.LoginIncorrect, 'Login credentials incorrect');
  }
}
/** Identity-provider token rejected. */
export class IdentityProviderLoginFailed extends AppError {
  constructor(message = 'Login credentials incorrect') {
    super(ErrorCode.IdentityProviderLogin, message);
  }
}
/** Too many failed sign-ins; the answer says when to try again. */
export class TooManyAttempts extends AppError {
  constructor(readonly retryAfterSec: number) {
    super(ErrorCode.TooManyAttempts, `Too many failed sign-ins, try again in ${retryAfterSec} s`);
  }
}
/** The session already runs as many history reads as it may, with as many waiting. */
export class TooManyReads extends AppError {
  constructor() {
    super(
      ErrorCode.TooManyReads,
      'Too many history reads at once for this session; wait for the running ones to finish',
    );
  }
}
/** The object already exists. */
export class Conflict extends AppError {
  constructor(message = 'Object already exists') {
    super(ErrorCode.Conflict, message);
  }
}
/** The device is offline. */
export class DeviceOffline extends AppError {
  constructor() {
    super(ErrorCode.DeviceOffline, 'Device is offline');
  }
}
/** The device did not answer. */
export class DeviceNotResponding extends AppError {
  constructor() {
    super(ErrorCode.DeviceNotResponding, 'Device not responding or is offline');
  }
}
/** The request or one of its parts is larger than allowed. */
export class PayloadTooLarge extends AppError {
  constructor(message = 'Request body too large') {
    super(ErrorCode.PayloadTooLarge, message);
  }
}
