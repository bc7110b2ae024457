import { appendFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import type { SecurityEvent } from '../http/audit-log';

/**
 * Security events of the operator commands (a key issued, rotated or revoked, a backup, a
 * restore, the secrets resealed), as the service logs those it meets through its API: one line in
 * pino's shape with a `security` field, so that the same shipper and the same filter
 * (`jq 'select(.security)'`) take both. `by` names the operating-system user who ran the command
 * (the one behind sudo when there is one), where the API names the caller's key.
 *
 * The line goes to stderr, and is also appended to the file `$PROVISIONER_SECURITY_LOG` names when
 * set (the file the service logs to, for example), so that an event of a command run in a shell
 * is not left in a terminal only.
 */
export const SECURITY_LOG_ENV = 'PROVISIONER_SECURITY_LOG';

export type SecurityEventSink = (event: SecurityEvent, message: string) => void;

/** Who ran the command: the login behind sudo, else the current user. */
export function operatorName(env: NodeJS.ProcessEnv = process.env): string {
  return env.SUDO_USER || userInfo().username;
}

export function securityLine(event: SecurityEvent, message: string, env: NodeJS.ProcessEnv = process.env): string {
  const security = { ...event, by: `operator:${operatorName(env)}` };
  return `${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, hostname: hostname(), security, msg: message })}\n`;
}

/** Writes each event to `err` (the command's stderr) and to $PROVISIONER_SECURITY_LOG when set. */
export function securityEventSink(
  err: (text: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): SecurityEventSink {
  return (event, message) => {
    const line = securityLine(event, message, env);
    err(line);
    const file = env[SECURITY_LOG_ENV];
    // Readable by the group that reads the service's logs (adm), as logrotate creates them.
    if (file) appendFileSync(file, line, { mode: 0o640 });
  };
}
