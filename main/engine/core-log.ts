import type { LogLevel, LogLine } from '../../contract/index';
import type { EventHub } from './event-hub';

const CAPACITY = 2000;
const REDACTED = '[redacted]';

/**
 * The recent log of the core, in memory: shown on the Outbox & logs screen, put in the support
 * report, and streamed live. Every line passes through the redaction of known secrets first, so
 * an API key that slips into a message never leaves main.
 */
export class CoreLog {
  private readonly lines: LogLine[] = [];
  private readonly secrets = new Set<string>();
  private seq = 0;

  constructor(
    private readonly events: EventHub,
    private readonly echo?: (line: LogLine) => void,
  ) {}

  /** Remember a secret so that it is cut out of every later line. */
  addSecret(secret: string): void {
    if (secret.length >= 8) this.secrets.add(secret);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join(REDACTED);
    // Bearer tokens of any kind, whether known or not.
    return out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, `$1${REDACTED}`);
  }

  write(level: LogLevel, source: string, message: string): void {
    const line: LogLine = {
      seq: ++this.seq,
      at: new Date().toISOString(),
      level,
      source,
      message: this.redact(message),
    };
    this.lines.push(line);
    if (this.lines.length > CAPACITY) this.lines.splice(0, this.lines.length - CAPACITY);
    this.echo?.(line);
    this.events.emit('logs.line', line);
  }

  info(source: string, message: string): void {
    this.write('info', source, message);
  }
  warn(source: string, message: string): void {
    this.write('warn', source, message);
  }
  error(source: string, message: string): void {
    this.write('error', source, message);
  }
  debug(source: string, message: string): void {
    this.write('debug', source, message);
  }

  recent(limit: number): LogLine[] {
    return this.lines.slice(-limit);
  }
}
