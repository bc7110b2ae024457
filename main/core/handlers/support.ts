import { arch, platform, release, type as osType } from 'node:os';
import type {
  AppInfo,
  AttachedDeviceView,
  JobView,
  OutboxView,
  SessionView,
  SupportReport,
} from '../../../contract/index';
import type { CoreLog } from '../../engine/core-log';

export interface SupportSources {
  appInfo: AppInfo;
  session(): Promise<SessionView>;
  devices(): AttachedDeviceView[];
  jobs(): JobView[];
  outbox(): Promise<OutboxView>;
  /** Every device's last jobs with their steps (main/features/workbench/job-timeline.ts). */
  timeline?(): Promise<Record<string, JobView[]>>;
  log: CoreLog;
}

/**
 * What a technician sends to support: versions, OS, session (never the key), attached devices,
 * jobs, each device's timeline of its last jobs (steps, bytes, retries, errors), outbox and the
 * recent log. Log lines are redacted when written; the whole text is
 * redacted once more in case a secret hides in a device error.
 */
export async function supportReport(sources: SupportSources, now = new Date()): Promise<SupportReport> {
  const session = await sources.session();
  const report = {
    format: 'provisioner-support-report/1',
    createdAt: now.toISOString(),
    app: sources.appInfo,
    os: { type: osType(), platform: platform(), release: release(), arch: arch() },
    session: session.status === 'signedIn' ? { ...session, capabilities: undefined } : session,
    attachedDevices: sources.devices(),
    jobs: sources.jobs(),
    jobTimeline: sources.timeline ? await sources.timeline().catch((err: unknown) => ({ error: String(err) })) : {},
    outbox: await sources.outbox().catch((err: unknown) => ({ error: String(err) })),
    recentLog: sources.log.recent(1000),
  };
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..+$/, '').replace('T', '-');
  return {
    fileName: `provisioner-support-${stamp}.json`,
    content: sources.log.redact(JSON.stringify(report, null, 2)),
  };
}
