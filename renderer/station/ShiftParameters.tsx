import { GroupedRows } from '../components/GroupedRows';
import type { StationShiftParametersView } from '../../contract/index';
import '../workbench/workbench.css';

type ShiftDevice = StationShiftParametersView['devices'][number];

/**
 * What the operator confirms at the start of a shift (issue 26): each device's parameters as its
 * configuration file intends them, in plain words and units, with its checksum; then the
 * configuration's parameter checksum, the one the operator types to start. Read before the
 * shift, so it shows intended values only: what each device runs is verified as it is plugged in.
 */
export function ShiftParameters({ view }: { view: StationShiftParametersView }) {
  return (
    <section className="shift-parameters" aria-labelledby="shift-parameters-title" data-testid="shift-parameters">
      <h2 id="shift-parameters-title" className="section-title">
        Parameters of “{view.configurationName}”
      </h2>
      <p className="small">
        Compare each device&apos;s values with what the machine needs. Every device plugged in during the shift is verified against exactly these values; one that runs anything else fails and is
        kept apart.
      </p>
      <div className="shift-parameters__devices">
        {view.devices.map((device) => (
          <DeviceTable key={device.serialNumber} device={device} />
        ))}
      </div>
      <dl className="param-checksums shift-parameters__checksum">
        <dt>Configuration parameter checksum (this tool, from every device&apos;s configuration file)</dt>
        <dd className="mono strong" data-testid="shift-checksum">
          {view.checksumShort}
        </dd>
      </dl>
    </section>
  );
}

function DeviceTable({ device }: { device: ShiftDevice }) {
  const caption = `${device.serialNumber} (${device.deviceType}), checksum ${device.checksumShort}`;
  return (
    <table className="table table--compact param-table shift-parameters__table" data-serial={device.serialNumber}>
      <caption className="mono">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Parameter</th>
          <th scope="col">Intended</th>
        </tr>
      </thead>
      <tbody>
        <GroupedRows
          rows={device.rows}
          columns={2}
          row={(row) => (
            <tr data-key={row.key}>
              <th scope="row">{row.label}</th>
              <td className="mono">{row.intended}</td>
            </tr>
          )}
        />
      </tbody>
    </table>
  );
}
