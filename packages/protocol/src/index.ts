export * from './constants';
export * from './errors';
export * from './common';
export * from './auth';
export * from './devices';
export * from './mqtt';
export * from './usermanager';
