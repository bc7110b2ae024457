import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiKeysScreen } from '../screens/ApiKeysScreen';
import { ConfigurationsScreen } from '../screens/ConfigurationsScreen';
import { DevicesScreen } from '../screens/DevicesScreen';
import { FirmwareScreen } from '../screens/FirmwareScreen';
import { OutboxScreen } from '../screens/OutboxScreen';
import { StationScreen } from '../screens/StationScreen';
import { TemplatesScreen } from '../screens/TemplatesScreen';
import { UsersScreen } from '../screens/UsersScreen';
import { WorkbenchScreen } from '../screens/WorkbenchScreen';
import { useNavigation, type ScreenId } from '../stores/navigation';
import { useOutbox } from '../stores/outbox';
import { useWorkbench } from '../stores/workbench';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import './shell.css';

const SCREEN_COMPONENTS: Record<ScreenId, () => React.JSX.Element> = {
  configurations: ConfigurationsScreen,
  devices: DevicesScreen,
  workbench: WorkbenchScreen,
  station: StationScreen,
  firmware: FirmwareScreen,
  templates: TemplatesScreen,
  users: UsersScreen,
  apiKeys: ApiKeysScreen,
  outbox: OutboxScreen,
};

export function Shell() {
  const { t } = useTranslation();
  const screen = useNavigation((s) => s.screen);
  const Screen = SCREEN_COMPONENTS[screen];

  useEffect(() => {
    void useWorkbench.getState().load();
    void useOutbox.getState().load();
  }, []);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('app:shell.skipToContent')}
      </a>
      <TopBar />
      <Sidebar />
      <main id="main" className="main" tabIndex={-1}>
        <Screen />
      </main>
    </div>
  );
}
