import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SimulationView } from '../../contract/index';
import { benchSerialProblem } from '../../domain/bench-serial';
import { DEVICE_TYPES, type DeviceType } from '../../domain/device-types';
import { client } from '../api/client';
import { useQuery } from '../api/use-query';
import { Callout } from '../components/misc';
import { SelectField, TextField } from '../components/fields';
import { useBusyAction } from '../components/use-busy-action';
import './workbench.css';

/**
 * The simulated bench of web mode's `--simulate`, on the Workbench: a hand on each simulated
 * device's E-stop (for its function test) and a form that plugs in another simulated device. Both
 * show only when the core runs a simulation; a real device is never pressed from the app.
 */

export interface SimulatedBench {
  active: boolean;
  /** The serial numbers whose E-stop the app can press. */
  pressable: ReadonlySet<string>;
  reload(): void;
}

export function useSimulatedBench(): SimulatedBench {
  const query = useQuery('simulation.devices', {});
  const view: SimulationView = query.data ?? { active: false, devices: [] };
  return {
    active: view.active,
    pressable: new Set(view.devices.filter((d) => d.canPressEstop).map((d) => d.serialNumber)),
    reload: query.reload,
  };
}

/** "Press E-stop" in a simulated device's row: the press goes through the simulator's control socket. */
export function PressEstopButton({ serialNumber }: { serialNumber: string }) {
  const { t } = useTranslation();
  const pressing = useBusyAction();
  const [presses, setPresses] = useState<number | null>(null);
  const press = () =>
    pressing.run(async () => {
      const answer = await client().call('simulation.pressEstop', { serialNumber });
      setPresses(answer.presses);
    });
  return (
    <>
      <button
        type="button"
        className="button button--quiet"
        disabled={pressing.busy}
        onClick={() => void press()}
        aria-label={t('workbench:bench.pressLabel', { serial: serialNumber })}
        title={
          pressing.error ??
          (presses !== null ? t('workbench:bench.pressed', { count: presses }) : t('workbench:bench.pressTitle'))
        }
        data-testid="press-estop"
      >
        {t('workbench:bench.press')}
      </button>
      {pressing.error ? (
        <span className="visually-hidden" role="alert">
          {pressing.error}
        </span>
      ) : null}
    </>
  );
}

// Product names: data, the same in every language.
const TYPE_OPTIONS = DEVICE_TYPES.map((type) => ({ value: type, label: type, isData: true }));

/** A small form: plug another simulated device of a chosen type and serial number into the bench. */
export function AddSimulatedDevice({ onAdded }: { onAdded(): void }) {
  const { t } = useTranslation();
  const [deviceType, setDeviceType] = useState<DeviceType>('EPC');
  const [serialNumber, setSerialNumber] = useState('');
  const [touched, setTouched] = useState(false);
  const [added, setAdded] = useState<string | null>(null);
  const adding = useBusyAction();
  const problem = benchSerialProblem(deviceType, serialNumber);
  const submit = () => {
    setTouched(true);
    if (problem) return;
    void adding.run(async () => {
      setAdded(null);
      const view = await client().call('simulation.addDevice', {
        deviceType,
        serialNumber: serialNumber.trim().toUpperCase(),
      });
      const serial = view.device.serialNumber;
      setAdded(
        view.registrationProblem
          ? t('workbench:bench.addedUnregistered', { serial, problem: view.registrationProblem })
          : t('workbench:bench.added', { serial, registered: view.registered ? 'yes' : 'no' }),
      );
      setSerialNumber('');
      setTouched(false);
      onAdded();
    });
  };
  return (
    <details className="port-globs simulated-bench">
      <summary>{t('workbench:bench.add')}</summary>
      <form
        className="simulated-bench__form"
        aria-label={t('workbench:bench.add')}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <SelectField
          label={t('workbench:bench.deviceType')}
          name="simulated-device-type"
          value={deviceType}
          options={TYPE_OPTIONS}
          onChange={(v) => v && setDeviceType(v)}
          reserveMessage={false}
        />
        <TextField
          label={t('workbench:bench.serialNumber')}
          name="simulated-serial-number"
          value={serialNumber}
          placeholder={t('workbench:bench.serialExample', { serial: `${deviceType}000105` })}
          onChange={(v) => {
            setSerialNumber(v);
            setTouched(true);
          }}
          error={touched ? problem : null}
          hint={t('workbench:bench.serialHint')}
        />
        <button type="submit" className="button button--secondary" disabled={adding.busy}>
          {t('workbench:bench.addDevice')}
        </button>
      </form>
      {added ? (
        <p className="muted" role="status">
          {added}
        </p>
      ) : null}
      {adding.error ? <Callout tone="bad">{adding.error}</Callout> : null}
    </details>
  );
}
