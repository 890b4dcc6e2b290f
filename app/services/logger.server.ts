import pino from 'pino';

// One logger for the server and the worker; modules take a child with their name. JSON lines
// for log collectors; readable lines (pino-pretty, in a worker thread) when a person watches a
// terminal, as after `npm start`.
const readable = process.stdout.isTTY === true && process.env.NODE_ENV !== 'test';
export const logger = pino(
  {
    level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
    base: { service: 'onreco' },
  },
  readable ? pino.transport({ target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service' } }) : undefined,
);
