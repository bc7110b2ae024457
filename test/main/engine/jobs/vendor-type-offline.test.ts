import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSigningKeyPair } from '../../../../domain/files/config-file-signature';
import { ConfigFileStore } from '../../../../main/engine/jobs/config-file-store';
import type { JobEnvironment } from '../../../../main/engine/jobs/context';
import { openJobDevice } from '../../../../main/engine/jobs/job-opening';
import { VendorConnection } from '../../../../main/engine/jobs/vendor-connection';
import { createMemoryLinkPair } from '../../../../main/devices/links/memory-link';
import { DeviceSession } from '../../../../main/devices/session';
import { configContent, serviceKeys, signedConfigFile } from '../../../fixtures/simulated-device';

/**
 * Issue 24: the vendor's FRC family does not say whether it is an SRC Pro or an NSC, and the
 * vendor's serial numbers do not either. Signed in, the service's record says; offline (the
 * record cannot be read), the configuration file kept here for the serial number says, once its
 * signature checks against the service's root key. A file no key vouches for decides nothing.
 */

const SERIAL = 'WBJFU8CN';
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A vendor FRC connection that identify took for an SRC Pro (its serial number names no type). */
function guessedSrcPro(): VendorConnection {
  const session = new DeviceSession(createMemoryLinkPair().host);
  return new VendorConnection(
    session,
    'FRC',
    {
      serialNumber: SERIAL,
      deviceType: 'SRCP',
      model: 'SRC Pro',
      firmwareVersion: '1.0.0',
      configSyncId: null,
      bootId: 'vendor:0',
    },
    3,
  );
}

async function open(options: { keptFile?: Uint8Array; rootKeyPem?: string }) {
  const dir = await mkdtemp(join(tmpdir(), 'vendor-type-offline-'));
  dirs.push(dir);
  const configFiles = new ConfigFileStore({ dir });
  if (options.keptFile) await configFiles.put(SERIAL, options.keptFile, 'kept');
  const connection = guessedSrcPro();
  const unreachable = () => Promise.reject(new Error('the service cannot be reached'));
  const env = {
    connector: { connect: async () => connection },
    reconciler: undefined,
    now: () => new Date(),
    client: { devices: { list: unreachable } } as unknown as JobEnvironment['client'],
    configFiles,
    signingKeys: {
      get: async () => ({ key: options.rootKeyPem ? { publicKeyPem: options.rootKeyPem } : undefined }),
    } as unknown as JobEnvironment['signingKeys'],
  };
  const updates: Array<Record<string, unknown>> = [];
  const control = {
    jobId: 'job-1',
    signal: new AbortController().signal,
    update: (change: Record<string, unknown>) => updates.push(change),
  };
  const opened = await openJobDevice(
    env,
    { kind: 'serialNumber', serialNumber: SERIAL },
    control,
    { phase: 'queued', percent: null, connecting: false },
    { session: undefined },
  );
  return { identity: opened.identity, updates };
}

describe('a vendor FRC offline', () => {
  it('takes the type the kept configuration file names when its signature checks', async () => {
    const file = signedConfigFile(configContent(SERIAL, 'NSCP'));
    const { identity, updates } = await open({ keptFile: file, rootKeyPem: serviceKeys.publicKeyPem });
    expect(identity).toMatchObject({ serialNumber: SERIAL, deviceType: 'NSCP', model: 'NSC' });
    expect(updates[0]).toMatchObject({ deviceType: 'NSCP' });
  });

  it('keeps its guess when the kept file is signed under another root key, or no root key is known, or no file is kept', async () => {
    const forged = signedConfigFile(configContent(SERIAL, 'NSCP'), generateSigningKeyPair());
    expect((await open({ keptFile: forged, rootKeyPem: serviceKeys.publicKeyPem })).identity.deviceType).toBe('SRCP');
    expect((await open({ keptFile: signedConfigFile(configContent(SERIAL, 'NSCP')) })).identity.deviceType).toBe(
      'SRCP',
    );
    expect((await open({ rootKeyPem: serviceKeys.publicKeyPem })).identity.deviceType).toBe('SRCP');
  });

  it('does not take the type of a file kept for another serial number', async () => {
    const other = signedConfigFile(configContent('NSCP000777', 'NSCP'));
    expect((await open({ keptFile: other, rootKeyPem: serviceKeys.publicKeyPem })).identity.deviceType).toBe('SRCP');
  });
});
