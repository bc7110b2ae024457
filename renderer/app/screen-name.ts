import type { TFunction } from 'i18next';
import type { ScreenId } from '../stores/navigation';

/** A screen's name as the sidebar shows it. One literal key per screen, so the catalog test sees each. */
export function screenName(t: TFunction, screen: ScreenId): string {
  switch (screen) {
    case 'configurations':
      return t('app:screen.configurations');
    case 'devices':
      return t('app:screen.devices');
    case 'workbench':
      return t('app:screen.workbench');
    case 'station':
      return t('app:screen.station');
    case 'firmware':
      return t('app:screen.firmware');
    case 'templates':
      return t('app:screen.templates');
    case 'users':
      return t('app:screen.users');
    case 'apiKeys':
      return t('app:screen.apiKeys');
    case 'outbox':
      return t('app:screen.outbox');
  }
}
