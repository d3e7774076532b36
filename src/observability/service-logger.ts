import { type Logger, pino } from 'pino';
import { SECRET_REDACTION } from '../security/index.js';

/** The one logger of a process: every part logs through it, the HTTP server's requests too. */
export type ServiceLogger = Logger;

export interface ServiceLoggerOptions {
  /** A pino level name (KUMO_LOG_LEVEL). */
  level: string;
  /** Where the JSON lines go instead of stdout (tests read them). */
  stream?: { write(line: string): void };
}

/**
 * Built first, before any part that logs (docs/design/layers.md, Wiring in order): credentials of
 * requests and passwords of settings never reach a line, whoever logs them.
 */
export function createServiceLogger(options: ServiceLoggerOptions): ServiceLogger {
  const settings = { level: options.level, redact: SECRET_REDACTION };
  return options.stream === undefined ? pino(settings) : pino(settings, options.stream);
}

/** Whether the logger writes `debug` lines. */
export function logsDebug(logger: ServiceLogger | undefined): boolean {
  return logger?.isLevelEnabled('debug') ?? false;
}
