import { z } from 'zod';
import { command, noInput, query } from './channel-spec';

export interface AppInfo {
  appVersion: string;
  host: 'electron' | 'web' | 'test';
  platform: string;
  nodeVersion: string;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export interface LogLine {
  seq: number;
  at: string;
  level: LogLevel;
  source: string;
  message: string;
}

export interface SupportReport {
  fileName: string;
  /** JSON text, secrets removed. */
  content: string;
}

/** What a technician tells support: the app's versions, the recent log, the support report. */
export const SUPPORT_CHANNELS = {
  'app.info': query(noInput).returns<AppInfo>(),
  'logs.recent': query(z.object({ limit: z.number().int().min(1).max(2000).default(500) }).strict()).returns<
    LogLine[]
  >(),
  'support.report': command(noInput).returns<SupportReport>(),
} as const;
export type SupportChannel = keyof typeof SUPPORT_CHANNELS;
