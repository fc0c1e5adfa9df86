import { pino, type Logger } from 'pino';

/**
 * The log of what happens outside a request and before the app is built (the database pool, start-up
 * failures, the two-factor key), in the same pino format and LOG_LEVEL as the requests' log
 * (server/src/app.ts). The start banner of `npm start` (address, demo logins) is not a log line: it is
 * written to stdout as text for the person who started the server.
 */
export const processLog: Logger = pino({
  level: process.env.LOG_LEVEL && process.env.LOG_LEVEL !== 'silent' ? process.env.LOG_LEVEL : 'info',
  enabled: process.env.LOG_LEVEL !== 'silent',
});
