import pino from 'pino';

// One JSON logger for the server and the worker; modules take a child with their name.
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  base: { service: 'onreco' },
});
