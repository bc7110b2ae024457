import type { ProvisioningClient } from './context';
import { notApplicableReason } from './step-record';

/**
 * Whether a configuration step can run for a device, asked of the service before a job starts, so
 * that the Workbench disables "Apply configuration" and "Both" and the CLI says so before it
 * begins, in the same words the job's skipped step uses afterwards.
 */
export type ConfigurationReadiness =
  | { ready: true; configurationId: string; configurationName: string | null }
  /** The service says no configuration step can run: `code` for support, `reason` for the technician. */
  | { ready: false; code: 'DEVICE_NOT_IN_CONFIGURATION' | 'DEVICE_NOT_REGISTERED'; reason: string }
  /** The service could not be asked (offline): the job tries, with the kept file if there is one. */
  | { ready: null; reason: string };

export async function configurationReadiness(
  client: Pick<ProvisioningClient, 'devices'>,
  serialNumber: string,
  options: { signal?: AbortSignal } = {},
): Promise<ConfigurationReadiness> {
  try {
    const page = await client.devices.list(
      { serial: serialNumber, limit: 1 },
      { retry: false, signal: options.signal },
    );
    const record = page.items.find((d) => d.serialNumber === serialNumber) ?? page.items[0];
    if (!record || record.serialNumber !== serialNumber) return notReady('DEVICE_NOT_REGISTERED', serialNumber);
    if (!record.configurationId) return notReady('DEVICE_NOT_IN_CONFIGURATION', serialNumber);
    return {
      ready: true,
      configurationId: record.configurationId,
      configurationName: record.configurationName ?? null,
    };
  } catch (error) {
    return {
      ready: null,
      reason: `the service could not be asked whether ${serialNumber} is in a configuration: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

function notReady(
  code: 'DEVICE_NOT_IN_CONFIGURATION' | 'DEVICE_NOT_REGISTERED',
  serialNumber: string,
): ConfigurationReadiness {
  return { ready: false, code, reason: notApplicableReason(code, serialNumber)! };
}
