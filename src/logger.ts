import pino, { type Logger } from 'pino';

/** Structured logs; credentials are redacted wherever they could appear. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'token', 'accessToken', 'password', 'secret'],
      censor: '[redacted]',
    },
  });
}
