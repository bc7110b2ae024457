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

/** The cache's zopfli worker tried on a built-in sample (the CLI's hidden `cache self-test`). */
export type CacheSelfTestResult =
  | { outcome: 'passed'; sourceBytes: number; streamBytes: number }
  /** The worker could not make a stream (or made one that does not inflate back); `message` says why. */
  | { outcome: 'cannot'; message: string }
  /** The sample is above the zopfli limit: a bug, never the install's fault. */
  | { outcome: 'aboveLimit' };

/** What a technician tells support: the app's versions, the recent log, the support report. */
export const SUPPORT_CHANNELS = {
  'app.info': query(noInput).returns<AppInfo>(),
  'logs.recent': query(z.object({ limit: z.number().int().min(1).max(2000).default(500) }).strict()).returns<
    LogLine[]
  >(),
  'support.report': command(noInput).returns<SupportReport>(),
  /** Whether this install makes the firmware cache's zopfli streams (its worker is bundled into the build). */
  'support.cacheSelfTest': query(noInput).returns<CacheSelfTestResult>(),
} as const;
export type SupportChannel = keyof typeof SUPPORT_CHANNELS;
