import { useTranslation } from 'react-i18next';
import { GroupedRows } from '../components/GroupedRows';
import type { StationShiftParametersView } from '../../contract/index';
import { useTranslator } from '../i18n/I18nProvider';
import { rowsInWords } from '../workbench/parameter-words';
import '../workbench/workbench.css';

type ShiftDevice = StationShiftParametersView['devices'][number];

/**
 * What the operator confirms at the start of a shift (issue 26): each device's parameters as its
 * configuration file intends them, in plain words and units, with its checksum; then the
 * configuration's parameter checksum, the one the operator types to start. Read before the
 * shift, so it shows intended values only: what each device runs is verified as it is plugged in.
 */
export function ShiftParameters({ view }: { view: StationShiftParametersView }) {
  const { t } = useTranslation();
  return (
    <section className="shift-parameters" aria-labelledby="shift-parameters-title" data-testid="shift-parameters">
      <h2 id="shift-parameters-title" className="section-title">
        {t('station:parameters.title', { name: view.configurationName })}
      </h2>
      <p className="small">{t('station:parameters.instructions')}</p>
      <div className="shift-parameters__devices">
        {view.devices.map((device) => (
          <DeviceTable key={device.serialNumber} device={device} />
        ))}
      </div>
      <dl className="param-checksums shift-parameters__checksum">
        <dt>{t('station:parameters.checksum')}</dt>
        <dd className="mono strong" data-testid="shift-checksum" translate="no">
          {view.checksumShort}
        </dd>
      </dl>
    </section>
  );
}

function DeviceTable({ device }: { device: ShiftDevice }) {
  const { t } = useTranslation();
  const words = useTranslator();
  const caption = t('station:parameters.caption', {
    serial: device.serialNumber,
    type: device.deviceType,
    checksum: device.checksumShort,
  });
  return (
    <table className="table table--compact param-table shift-parameters__table" data-serial={device.serialNumber}>
      <caption className="mono">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('workbench:parameters.parameter')}</th>
          <th scope="col">{t('workbench:parameters.intended')}</th>
        </tr>
      </thead>
      <tbody>
        <GroupedRows
          rows={rowsInWords(device.rows, words)}
          columns={2}
          row={(row) => (
            <tr data-key={row.key}>
              <th scope="row">{row.label}</th>
              <td className="mono" translate="no">
                {row.intended}
              </td>
            </tr>
          )}
        />
      </tbody>
    </table>
  );
}
