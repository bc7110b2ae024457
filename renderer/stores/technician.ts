import { create } from 'zustand';

interface TechnicianState {
  /** The technician's own name, asked once and kept while the app runs (not written anywhere). */
  name: string;
  setName(name: string): void;
}

/**
 * Who confirms at this workstation (issue 26). An API key is often shared by a team, so a
 * confirmation names the person; asking once per session spares them retyping it per device.
 */
export const useTechnician = create<TechnicianState>((set) => ({
  name: '',
  setName: (name) => set({ name: name.trim() }),
}));
