import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { abortReason } from '../../../../main/devices/errors';
import {
  ConfigFileStore,
  FirmwareCache,
  IntentJournal,
  JobQueue,
  Outbox,
  SigningKeyStore,
  type DeviceConfigStatus,
  type DeviceConnector,
  type DeviceIdentity,
  type DeviceConnection,
  type JobEnvironment,
  type ProvisioningClient,
} from '../../../../main/engine/jobs';
import { expireInterruptedJobs, INTERRUPTED_JOB_LIMIT_MS } from '../../../../main/engine/jobs/confirm';
import {
  buildFirmwareBundle,
  CONFIG_FILE_FORMAT,
  decodeConfigFile,
  encodeConfigFile,
  generateSigningKeyPair,
  makeFirmwareImage,
  type SigningKeyPair,
} from '../../../../domain/files';
import { nextSequence, organizationSigner } from '../../../fixtures/config-files';
import { testReleaseKey } from '../../../fixtures/release-key';
import { intendedParameters, parameterChecksum, type RunningParameters } from '../../../../domain/running-parameters';
import { SwitchableService } from './helpers/switchable-service';

/**
 * The jobs on their own, with a scripted device and a scripted service: the paths the end-to-end
 * tests cannot reach cheaply (a crash between intent and confirmation, a cancel mid-upload, a
 * device that comes back with its old firmware, a wrong bundle) and what each leaves in the outbox.
 */

/** The service's root key: it certifies the organization key that signs the files. */
const keys = generateSigningKeyPair();
const bundle = buildFirmwareBundle({
  deviceType: 'EPC',
  version: '2.0.0',
  image: makeFirmwareImage('EPC', '2.0.0', 4096),
  releaseKeyPem: testReleaseKey.privateKeyPem,
});

/** A file of organization `orgId` (the one signed in to by default), newer than every one made before. */
function configFile(serialNumber: string, options: { orgId?: string; root?: SigningKeyPair } = {}): Uint8Array {
  const orgId = options.orgId ?? 'org';
  return encodeConfigFile(
    {
      format: CONFIG_FILE_FORMAT,
      syncId: randomUUID(),
      serialNumber,
      deviceType: 'EPC',
      orgId,
      sequence: nextSequence(),
      configurationId: randomUUID(),
      blank: false,
      issuedAt: new Date().toISOString(),
      device: {},
      peers: [],
      safety: {},
    },
    organizationSigner(options.root ?? keys, orgId),
  );
}

interface Script {
  identity: DeviceIdentity;
  /** What the device runs after apply (default: the version applied). */
  versionAfterApply?: string;
  /** The upload stops at this byte and waits to be cancelled. */
  hangAt?: number;
  /** What GET /config reports (default: nothing applied, unclaimed); an applied file updates it. */
  config?: DeviceConfigStatus;
  /** What GET /params reports: by default the parameters of the last file applied, with their checksum. */
  parameters?: RunningParameters;
  /** Parameters the device stores differently from the file it applies (a flipped bit, a firmware's rounding). */
  drift?: Record<string, string | number | boolean | null>;
  calls: string[];
}

function scriptedConnector(script: Script): DeviceConnector {
  return {
    async connect(target, options) {
      if (options?.signal?.aborted) throw abortReason(options.signal);
      script.calls.push('connect');
      const session: DeviceConnection = {
        link: target.kind === 'link' ? target.spec : 'serial:/dev/fake',
        identity: { ...script.identity },
        identify: async () => ({ ...script.identity }),
        async uploadFirmware(image, transfer = {}) {
          script.calls.push('uploadFirmware');
          const total = image.bytes.length;
          transfer.onProgress?.({ bytes: 0, total });
          if (script.hangAt !== undefined) {
            transfer.onProgress?.({ bytes: script.hangAt, total });
            await new Promise((_resolve, reject) =>
              transfer.signal?.addEventListener('abort', () => reject(abortReason(transfer.signal!))),
            );
          }
          transfer.onProgress?.({ bytes: total, total });
          return { announcedOffsets: [0] };
        },
        async applyFirmware(version) {
          script.calls.push('applyFirmware');
          script.identity = {
            ...script.identity,
            firmwareVersion: script.versionAfterApply ?? version,
            bootId: Number(script.identity.bootId) + 1,
          };
          return { ...script.identity };
        },
        async uploadConfiguration(file, transfer = {}) {
          script.calls.push('uploadConfiguration');
          transfer.onProgress?.({ bytes: file.length, total: file.length });
          const decoded = decodeConfigFile(file);
          const syncId = decoded.syncId;
          script.identity = { ...script.identity, configSyncId: syncId, bootId: Number(script.identity.bootId) + 1 };
          script.config = {
            syncId,
            sequence: decoded.sequence,
            claim: script.config?.claim ?? { orgId: decoded.orgId, keyId: decoded.keyId },
          };
          const values = { ...intendedParameters(decoded.content), ...script.drift };
          script.parameters = { values, checksum: parameterChecksum(values), checksumBy: 'device' };
          return { syncId, identity: { ...script.identity } };
        },
        async readConfigStatus() {
          script.calls.push('readConfigStatus');
          return script.config ?? { syncId: null, sequence: null, claim: null };
        },
        async readRunningParameters() {
          script.calls.push('readRunningParameters');
          const values = script.parameters?.values ?? {};
          return script.parameters ?? { values, checksum: parameterChecksum(values), checksumBy: 'device' };
        },
        close: async () => undefined,
      };
      return session;
    },
  };
}

let dir: string;
let service: SwitchableService;
let fileForDevice: Uint8Array;

function client(): ProvisioningClient {
  return {
    baseUrl: 'http://service.test',
    orgId: 'org',
    signingKey: async () => {
      service.reach('GET', '/x');
      return { keyId: keys.keyId, algorithm: 'ES256', publicKeyPem: keys.publicKeyPem };
    },
    firmwareReleaseKeys: async () => {
      service.reach('GET', '/x');
      return [
        {
          keyId: testReleaseKey.keyId,
          name: 'test release key',
          algorithm: 'Ed25519' as const,
          publicKeyPem: testReleaseKey.publicKeyPem,
          trustedAt: '2025-01-01T00:00:00.000Z',
        },
      ];
    },
    devices: {
      listAll: async function* () {},
      firmwareVersion: async () => {
        service.reach('GET', '/x');
        return { deviceType: 'EPC' as const, version: '2.0.0' };
      },
      firmwareVersionByType: async () => ({ deviceType: 'EPC' as const, version: '2.0.0' }),
      fetchFirmware: async () => ({ bytes: bundle, syncId: undefined, headers: new Headers() }),
      fetchFirmwareByType: async () => ({ bytes: bundle, syncId: undefined, headers: new Headers() }),
      fetchConfigurationFile: async () => {
        service.reach('GET', '/x');
        return { bytes: fileForDevice, syncId: undefined, headers: new Headers() };
      },
    } as unknown as ProvisioningClient['devices'],
  };
}

function environment(script: Script): { env: JobEnvironment; outbox: Outbox; intents: IntentJournal } {
  const outbox = new Outbox({
    dir: join(dir, 'outbox'),
    sender: service,
  });
  const intents = new IntentJournal({ dir: join(dir, 'intents') });
  const env: JobEnvironment = {
    connector: scriptedConnector(script),
    cache: new FirmwareCache({ dir: join(dir, 'cache') }),
    configFiles: new ConfigFileStore({ dir: join(dir, 'config-files') }),
    signingKeys: new SigningKeyStore({ dir: join(dir, 'keys') }),
    outbox,
    intents,
    client: client(),
    address: { serviceUrl: 'http://service.test', orgId: 'org' },
    reconnect: { attempts: 1, waitMs: 100, pollMs: 10 },
    now: () => new Date(),
  };
  return { env, outbox, intents };
}

function epc(firmwareVersion = '1.0.0'): DeviceIdentity {
  return {
    serialNumber: 'EPC000101',
    deviceType: 'EPC',
    model: 'EPC-E4',
    firmwareVersion,
    configSyncId: null,
    bootId: 1,
  };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pv-jobs-'));
  service = new SwitchableService();
  fileForDevice = configFile('EPC000101');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('firmware job', () => {
  it('confirms a cancel during the upload as a failure, resumable', async () => {
    const script: Script = { identity: epc(), hangAt: 2048, calls: [] };
    const { env, intents } = environment(script);
    const queue = new JobQueue({ environment: () => env });
    const job = queue.submit({ action: 'firmware', target: { kind: 'link', spec: 'serial:/dev/fake' } });
    const unsubscribe = queue.subscribe((batch) => {
      if (batch.some((j) => j.phase === 'uploading' && j.bytesDone === 2048)) queue.cancel(job.jobId);
    });
    const final = await queue.wait(job.jobId);
    unsubscribe();
    expect(final).toMatchObject({ phase: 'cancelled', errorCode: 'CANCELLED', resumable: true, confirmation: 'sent' });
    expect(final.resultMessage).toMatch(/^cancelled during uploading at \d+%; run the same command again to resume$/);
    expect(service.sent).toHaveLength(1);
    expect(service.sent[0]!.payload).toMatchObject({
      firmwareFileSuccessfullyDeployed: false,
      firmwareVersion: '2.0.0',
    });
    expect(await intents.orphans()).toEqual([]);
  });

  it('does nothing to a device that already runs the latest firmware', async () => {
    const script: Script = { identity: epc('2.0.0'), calls: [] };
    const { env } = environment(script);
    const queue = new JobQueue({ environment: () => env });
    const final = await queue.wait(
      queue.submit({ action: 'firmware', target: { kind: 'link', spec: 'serial:/dev/fake' } }).jobId,
    );
    expect(final).toMatchObject({
      phase: 'done',
      outcome: 'up-to-date',
      confirmation: 'none',
      resultMessage: 'already runs firmware 2.0.0; nothing sent',
    });
    expect(script.calls).toEqual(['connect']);
    expect(service.sent).toEqual([]);
  });

  it('refuses a bundle for another type before the device is touched, and confirms nothing', async () => {
    const script: Script = { identity: { ...epc(), deviceType: 'NSCP', serialNumber: 'NSCP000101' }, calls: [] };
    const { env } = environment(script);
    const queue = new JobQueue({ environment: () => env });
    const final = await queue.wait(
      queue.submit({
        action: 'firmware',
        target: { kind: 'link', spec: 'serial:/dev/fake' },
        firmware: { kind: 'file', bytes: bundle, name: 'EPC-2.0.0.zip' },
      }).jobId,
    );
    expect(final).toMatchObject({ phase: 'failed', errorCode: 'FW_WRONG_TYPE', confirmation: 'none' });
    expect(final.resultMessage).toBe('This firmware is for EPC devices, not NSCP');
    expect(script.calls).toEqual(['connect']);
  });

  it('fails, and confirms the failure, when the device comes back with its old firmware', async () => {
    const script: Script = { identity: epc(), versionAfterApply: '1.0.0', calls: [] };
    const { env } = environment(script);
    const queue = new JobQueue({ environment: () => env });
    const final = await queue.wait(
      queue.submit({ action: 'firmware', target: { kind: 'link', spec: 'serial:/dev/fake' } }).jobId,
    );
    expect(final).toMatchObject({ phase: 'failed', errorCode: 'FW_NOT_RUNNING', confirmation: 'sent' });
    expect(service.sent[0]!.payload).toMatchObject({
      firmwareFileSuccessfullyDeployed: false,
      error: expect.stringContaining('restarted running firmware 1.0.0, not 2.0.0'),
    });
  });
});

describe('interrupted jobs', () => {
  it('wait for their device at the next start, and turn into failure confirmations only once too old', async () => {
    const { outbox } = environment({ identity: epc(), calls: [] });
    const crashed = new IntentJournal({ dir: join(dir, 'intents'), pid: 999_999_999 });
    const intent = await crashed.record({
      jobId: 'job-1',
      kind: 'firmware',
      serviceUrl: 'http://service.test',
      orgId: 'org',
      serialNumber: 'EPC000101',
      firmwareVersion: '2.0.0',
      syncId: null,
      phase: 'uploading',
    });
    const journal = new IntentJournal({ dir: join(dir, 'intents'), isAlive: () => false });
    const soon = await expireInterruptedJobs(journal, outbox, {
      now: new Date(Date.parse(intent.updatedAt) + INTERRUPTED_JOB_LIMIT_MS - 60_000),
    });
    expect([soon.waiting.map((i) => i.jobId), soon.expired]).toEqual([['job-1'], []]);
    expect(await outbox.list()).toEqual([]);
    const later = await expireInterruptedJobs(journal, outbox, {
      now: new Date(Date.parse(intent.updatedAt) + INTERRUPTED_JOB_LIMIT_MS),
      workstation: 'ws-1',
    });
    expect(later.expired.map((i) => i.jobId)).toEqual(['job-1']);
    const [entry] = await outbox.list();
    expect(entry).toMatchObject({ kind: 'firmware', serialNumber: 'EPC000101', state: 'pending' });
    expect(entry!.payload).toMatchObject({
      firmwareFileSuccessfullyDeployed: false,
      firmwareVersion: '2.0.0',
      applyTimeStamp: intent.updatedAt,
    });
    expect(entry!.payload).toMatchObject({ workstation: 'ws-1', reason: 'job-result' });
    expect((entry!.payload as { error: string }).error).toMatch(
      /^Interrupted: Provisioner stopped during uploading .* was not seen again within 30 days/,
    );
    expect(await journal.orphans()).toEqual([]);
  });
});

describe('configuration job', () => {
  it('applies the kept file when the service is unreachable, and says so', async () => {
    const script: Script = { identity: epc(), calls: [] };
    const { env } = environment(script);
    // Kept from a download while the service was reachable (as cache prefetch does), with the root key.
    const kept = await env.configFiles.resolve(env.client.devices, 'EPC000101');
    await env.signingKeys.get(env.client);
    service.up = false;
    const queue = new JobQueue({ environment: () => env });
    const offline = await queue.wait(
      queue.submit({ action: 'configuration', target: { kind: 'link', spec: 'serial:/dev/fake' } }).jobId,
    );
    expect(offline).toMatchObject({ phase: 'done', outcome: 'applied', confirmation: 'queued', syncId: kept.syncId });
    expect(offline.notice).toMatch(
      /^The service is unreachable; applying the configuration file kept since .* \(syncId [0-9a-f-]+\)\.$/,
    );
  });

  it('refuses a file for another device after identifying it, without uploading', async () => {
    const script: Script = { identity: epc(), calls: [] };
    const { env } = environment(script);
    const queue = new JobQueue({ environment: () => env });
    const final = await queue.wait(
      queue.submit({
        action: 'configuration',
        target: { kind: 'link', spec: 'udp:10.0.0.2' },
        configuration: { kind: 'file', bytes: configFile('EPC000102'), name: 'other.cbor' },
      }).jobId,
    );
    expect(final).toMatchObject({ phase: 'failed', errorCode: 'CONFIG_WRONG_DEVICE', confirmation: 'none' });
    expect(final.resultMessage).toBe(
      'other.cbor is for device EPC000102, not EPC000101; nothing was sent; download the file of EPC000101 (provisioner device configuration download EPC000101)',
    );
    expect(script.calls).toEqual(['connect']);
  });

  it('refuses a file signed by another service', async () => {
    const foreign = configFile('EPC000101', { root: generateSigningKeyPair() });
    const script: Script = { identity: epc(), calls: [] };
    const { env } = environment(script);
    const queue = new JobQueue({ environment: () => env });
    const final = await queue.wait(
      queue.submit({
        action: 'configuration',
        target: { kind: 'link', spec: 'serial:/dev/fake' },
        configuration: { kind: 'file', bytes: foreign, name: 'x.cbor' },
      }).jobId,
    );
    expect(final).toMatchObject({ phase: 'failed', errorCode: 'CONFIG_BAD_SIGNATURE', confirmation: 'none' });
    expect(script.calls).toEqual(['connect']);
  });
});

describe('configuration job: what the device would refuse is refused before anything is sent', () => {
  async function applyFile(script: Script, bytes: Uint8Array) {
    const { env } = environment(script);
    const queue = new JobQueue({ environment: () => env });
    return queue.wait(
      queue.submit({
        action: 'configuration',
        target: { kind: 'link', spec: 'serial:/dev/fake' },
        configuration: { kind: 'file', bytes, name: 'x.cbor' },
      }).jobId,
    );
  }

  it('a file older than the one the device applied', async () => {
    const older = configFile('EPC000101');
    const newer = configFile('EPC000101');
    const script: Script = { identity: epc(), calls: [] };
    expect(await applyFile(script, newer)).toMatchObject({ phase: 'done', outcome: 'applied' });
    script.calls = [];
    const final = await applyFile(script, older);
    const held = decodeConfigFile(newer);
    expect(final).toMatchObject({ phase: 'failed', errorCode: 'CONFIG_SUPERSEDED', confirmation: 'none' });
    expect(final.resultMessage).toBe(
      `EPC000101 applied a newer configuration file (sequence ${held.sequence}, syncId ${held.syncId}) than x.cbor (sequence ${decodeConfigFile(older).sequence}); nothing was sent; ` +
        'download the current file of EPC000101 (provisioner device configuration download EPC000101)',
    );
    expect(script.calls).toEqual(['connect', 'readConfigStatus']);
  });

  it('the file the device applied: up to date, nothing sent, nothing confirmed', async () => {
    const file = configFile('EPC000101');
    const script: Script = { identity: epc(), calls: [] };
    await applyFile(script, file);
    const bootId = script.identity.bootId;
    script.calls = [];
    service.sent.length = 0;
    const final = await applyFile(script, file);
    const { syncId, sequence } = decodeConfigFile(file);
    expect(final).toMatchObject({
      phase: 'done',
      outcome: 'up-to-date',
      confirmation: 'none',
      resultMessage: `already holds configuration ${syncId} (sequence ${sequence}); nothing sent`,
    });
    // Nothing sent, but what the device runs is still read back and verified.
    expect(script.calls).toEqual(['connect', 'readConfigStatus', 'readRunningParameters']);
    expect(final.parameters?.match).toBe(true);
    expect(script.identity.bootId).toBe(bootId);
    expect(service.sent).toEqual([]);
  });

  it('a device that stored a parameter differently: in sync by syncId, failed by parameter verification, the failure confirmed', async () => {
    const script: Script = { identity: epc(), calls: [], drift: { 'safety.timeout': 1024 } };
    const file = configFile('EPC000101');
    const final = await applyFile(script, file);
    expect(script.identity.configSyncId).toBe(decodeConfigFile(file).syncId);
    expect(final).toMatchObject({ phase: 'failed', errorCode: 'PARAMETERS_MISMATCH' });
    expect(final.resultMessage).toContain('Safety timeout');
    expect(final.parameters?.rows.filter((row) => !row.match).map((row) => row.key)).toEqual(['safety.timeout']);
    expect(final.steps.find((s) => s.step === 'parameter-verification')).toMatchObject({
      status: 'failed',
      errorCode: 'PARAMETERS_MISMATCH',
    });
    expect(final.steps.find((s) => s.step === 'read-back')).toMatchObject({ status: 'done' });
    expect(service.sent.at(-1)).toMatchObject({
      kind: 'configuration',
      payload: { configurationFileSuccessfullyDeployed: false },
    });
  });

  it('a device claimed by another organization', async () => {
    const script: Script = {
      identity: epc(),
      config: { syncId: randomUUID(), sequence: 1, claim: { orgId: 'plant-b', keyId: 'b'.repeat(32) } },
      calls: [],
    };
    const final = await applyFile(script, configFile('EPC000101'));
    expect(final).toMatchObject({ phase: 'failed', errorCode: 'CONFIG_WRONG_ORGANIZATION', confirmation: 'none' });
    expect(final.resultMessage).toMatch(
      /^EPC000101 belongs to organization plant-b and takes only files signed with its key \(b{32}\); x\.cbor is signed by org \(key [0-9a-f]{32}\); nothing was sent; a device changes organization only after a factory reset$/,
    );
    expect(script.calls).toEqual(['connect', 'readConfigStatus']);
  });

  it("a file of another organization than the one signed in to, even one the service's root certified", async () => {
    const script: Script = { identity: epc(), calls: [] };
    const final = await applyFile(script, configFile('EPC000101', { orgId: 'plant-b' }));
    expect(final).toMatchObject({ phase: 'failed', errorCode: 'CONFIG_WRONG_ORGANIZATION', confirmation: 'none' });
    expect(final.resultMessage).toBe(
      'x.cbor is a file of organization plant-b, not of org (signed in); nothing was sent; download the file of EPC000101 from organization org',
    );
    expect(script.calls).toEqual(['connect']);
  });

  it('leaves the checks to a device that reports no sequence or claim', async () => {
    const script: Script = {
      identity: epc(),
      config: { syncId: randomUUID(), sequence: null, claim: null },
      calls: [],
    };
    expect(await applyFile(script, configFile('EPC000101'))).toMatchObject({ phase: 'done', outcome: 'applied' });
    expect(script.calls).toEqual(['connect', 'readConfigStatus', 'uploadConfiguration', 'readRunningParameters']);
  });
});
