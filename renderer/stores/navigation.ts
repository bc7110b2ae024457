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
  go(screen: ScreenId): void;
  openConfiguration(id: string | null): void;
}

export const useNavigation = create<NavigationState>((set) => ({
  screen: 'configurations',
  configurationId: null,
  go: (screen) => set({ screen, configurationId: null }),
  openConfiguration: (id) => set({ screen: 'configurations', configurationId: id }),
}));
