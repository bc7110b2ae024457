import { describe, expect, it } from 'vitest';
import { loadShiftParameters, SHIFT_FILES_AT_ONCE } from '../../../../main/features/station/shift-parameters';
import { StationSetupError, type StationRoster } from '../../../../main/features/station/roster';
import { configContent, signedConfigFile } from '../../../fixtures/simulated-device';

/**
 * The start of a shift fetches every device's configuration file: several at once (the soak bench
 * waited 148 s for 300 devices fetched one by one), never more than SHIFT_FILES_AT_ONCE, and the
 * shift lists every device whatever order the files come in.
 */

const roster = (count: number): StationRoster => ({
  configurationId: '00000000-0000-4000-8000-000000000001',
  configurationName: 'Night shift',
  devices: new Map(Array.from({ length: count }, (_, i) => [`EPC8${String(i + 1).padStart(5, '0')}`, 'EPC'] as const)),
});

/** A file store whose downloads finish when the test says, in the reverse order of their start. */
function heldFiles(failing: ReadonlySet<string> = new Set()) {
  let inFlight = 0;
  let most = 0;
  const held: Array<() => void> = [];
  return {
    get most() {
      return most;
    },
    held,
    store: {
      resolve: async (_source: unknown, serialNumber: string) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise<void>((resolve) => held.push(resolve));
        inFlight -= 1;
        if (failing.has(serialNumber)) throw new Error('the configuration is not complete');
        const bytes = signedConfigFile(configContent(serialNumber, 'EPC'));
        return { bytes, syncId: '', origin: 'download' as const, notice: undefined };
      },
    },
  };
}

/** Lets the held downloads finish, newest first, until the load settles (bounded by the roster's size). */
async function release(files: ReturnType<typeof heldFiles>, loading: Promise<unknown>, count: number) {
  let settled = false;
  void loading.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let round = 0; round < count * 4 && !settled; round += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    files.held.pop()?.();
  }
}

describe('loadShiftParameters', () => {
  it(`fetches the files ${SHIFT_FILES_AT_ONCE} at once, and the shift holds every device`, async () => {
    const files = heldFiles();
    const loading = loadShiftParameters(roster(30), files.store as never, { devices: {} } as never);
    await release(files, loading, 30);
    const shift = await loading;
    expect(files.most).toBe(SHIFT_FILES_AT_ONCE);
    expect(shift.devices.map((d) => d.serialNumber).sort()).toEqual([...roster(30).devices.keys()].sort());
  });

  it('names every device whose file cannot be made, in the roster’s order, and does not start the shift', async () => {
    const files = heldFiles(new Set(['EPC800003', 'EPC800017']));
    const loading = loadShiftParameters(roster(20), files.store as never, { devices: {} } as never);
    await release(files, loading, 20);
    const error = await loading.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StationSetupError);
    expect((error as Error).message).toMatch(/for EPC800003 \(the configuration is not complete\); EPC800017 \(/);
  });
});
