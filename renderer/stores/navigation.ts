import { create } from 'zustand';

/** The screens in the sidebar's order; their names are in the app catalog (renderer/app/screen-name.ts). */
export const SCREENS = [
  'configurations',
  'devices',
  'workbench',
  'station',
  'firmware',
  'templates',
  'users',
  'apiKeys',
  'outbox',
] as const;
export type ScreenId = (typeof SCREENS)[number];

interface NavigationState {
  screen: ScreenId;
  /** The configuration open in the designer, when on the configurations screen. */
  configurationId: string | null;
  /** A device the technician came to add to a configuration (from the Workbench): the designer opens its add form with it. */
  deviceToAdd: string | null;
  go(screen: ScreenId): void;
  openConfiguration(id: string | null): void;
  /** To Configurations, to pick the configuration this device goes into. */
  addDeviceToConfiguration(serialNumber: string): void;
  deviceAdded(): void;
}

export const useNavigation = create<NavigationState>((set) => ({
  screen: 'configurations',
  configurationId: null,
  deviceToAdd: null,
  go: (screen) => set({ screen, configurationId: null, deviceToAdd: null }),
  openConfiguration: (id) => set({ screen: 'configurations', configurationId: id }),
  addDeviceToConfiguration: (serialNumber) =>
    set({ screen: 'configurations', configurationId: null, deviceToAdd: serialNumber }),
  deviceAdded: () => set({ deviceToAdd: null }),
}));
