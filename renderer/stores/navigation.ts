import { create } from 'zustand';

export const SCREENS = [
  { id: 'configurations', label: 'Configurations' },
  { id: 'devices', label: 'Devices' },
  { id: 'workbench', label: 'Workbench' },
  { id: 'station', label: 'Station' },
  { id: 'firmware', label: 'Firmware' },
  { id: 'templates', label: 'Network templates' },
  { id: 'users', label: 'Users' },
  { id: 'apiKeys', label: 'API keys' },
  { id: 'outbox', label: 'Outbox & logs' },
] as const;
export type ScreenId = (typeof SCREENS)[number]['id'];

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
  addDeviceToConfiguration: (serialNumber) => set({ screen: 'configurations', configurationId: null, deviceToAdd: serialNumber }),
  deviceAdded: () => set({ deviceToAdd: null }),
}));
