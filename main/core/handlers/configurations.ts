import type {
  ConfigurationChannel,
  ConfigurationStatusView,
  ConfigurationView,
  DeviceFileReadiness,
  WriteOutcome,
} from '../../../contract/index';
import type { Violation } from '../../../domain/violations';
import type { DeviceAddInput } from '../../../domain/configuration-device';
import type { AccountSession } from '../account-session';
import { toCoreError, violationsOfRefusal } from '../errors';
import type { HandlerGroup } from './types';

/** Drops nulls: in PATCH bodies null means "leave as is", so sending it says nothing. */
function withoutNulls<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

/** A write the service may refuse with validation errors: those come back as violations, not as a failure. */
async function judged<T>(work: () => Promise<T>, dryRun: boolean): Promise<WriteOutcome<T>> {
  try {
    return { dryRun, violations: [], value: await work() };
  } catch (err) {
    const violations = violationsOfRefusal(err);
    if (violations) return { dryRun, violations, value: null };
    throw toCoreError(err);
  }
}

export function configurationHandlers(session: AccountSession): HandlerGroup<ConfigurationChannel> {
  const client = (write = false) => session.require(write ? 'configurations.write' : 'configurations.read').client;
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw toCoreError(err);
    }
  };
  // A dry run resolves with the validation errors the real call would get; others throw as it would.
  const dryRunOutcome = async (work: () => Promise<Violation[]>): Promise<WriteOutcome<ConfigurationView>> => ({
    dryRun: true,
    violations: await call(work),
    value: null,
  });

  return {
    'configurations.list': (input) =>
      call(() =>
        client().configurations.list({
          Search: input.search,
          SortOptions: input.sortOptions,
          Limit: input.limit,
          Page: input.page,
        }),
      ),
    'configurations.get': (input) => call(() => client().configurations.get(input.id)),
    'configurations.create': (input) =>
      judged(
        () => client(true).configurations.create({ ...withoutNulls(input.settings), name: input.settings.name }),
        false,
      ),
    'configurations.update': async (input) => {
      const c = client(true);
      const patch = withoutNulls(input.settings);
      if (input.dryRun) return dryRunOutcome(() => c.configurations.updateDryRun(input.id, patch));
      return judged(() => c.configurations.update(input.id, patch), false);
    },
    'configurations.delete': async (input) => (await call(() => client(true).configurations.delete(input.id))).deleted,
    'configurations.status': async (input) => {
      const c = client();
      const [status, configuration] = await call(() =>
        Promise.all([c.configurations.validate(input.id), c.configurations.get(input.id)]),
      );
      return statusView(status, configuration);
    },
    'configurations.addDevice': async (input) => {
      const c = client(true);
      // Update-only fields in an add are the service's to refuse (UPDATE_ONLY_FIELD), beside their field.
      const payload = { ...withoutNulls(input.settings), serialNumber: input.serialNumber } as DeviceAddInput;
      if (input.dryRun) return dryRunOutcome(() => c.configurations.addDeviceDryRun(input.id, payload));
      const outcome = await judged(() => c.configurations.addDevice(input.id, payload), false);
      return outcome.value
        ? { ...outcome, value: await call(() => c.configurations.get(input.id)) }
        : { ...outcome, value: null };
    },
    'configurations.updateDevice': async (input) => {
      const c = client(true);
      const patch = withoutNulls(input.settings);
      if (input.dryRun)
        return dryRunOutcome(() => c.configurations.updateDeviceDryRun(input.id, input.serialNumber, patch));
      const outcome = await judged(() => c.configurations.updateDevice(input.id, input.serialNumber, patch), false);
      return outcome.value
        ? { ...outcome, value: await call(() => c.configurations.get(input.id)) }
        : { ...outcome, value: null };
    },
    'configurations.removeDevice': async (input) => {
      const c = client(true);
      await call(() => c.configurations.removeDevice(input.id, input.serialNumber));
      return call(() => c.configurations.get(input.id));
    },
  };
}

export function statusView(
  status: { complete: boolean; errors: Violation[]; warnings: Violation[]; readyDevices: string[] },
  configuration: ConfigurationView,
): ConfigurationStatusView {
  const devices: DeviceFileReadiness[] = configuration.devices.map((d) => {
    const ready = status.readyDevices.includes(d.serialNumber);
    const own = status.errors.find(
      (v) => v.field === `devices.${d.serialNumber}` || v.field.startsWith(`devices.${d.serialNumber}.`),
    );
    return {
      serialNumber: d.serialNumber,
      deviceType: d.deviceType,
      ready,
      reason: ready ? null : (own?.message ?? 'Files are produced once the whole configuration is complete.'),
    };
  });
  return { complete: status.complete, violations: status.errors, warnings: status.warnings, devices };
}
