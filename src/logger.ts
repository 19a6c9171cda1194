import pino, { type DestinationStream, type Logger } from 'pino';

/** Structured logs, to stdout unless a destination is given; credentials are redacted wherever they could appear. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'token', 'accessToken', 'password', 'secret'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
