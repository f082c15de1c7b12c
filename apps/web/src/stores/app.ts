import {
  DEFAULT_SIZE,
  MOBILE_BREAKPOINT_PX,
  SIDEBAR_STATUS_KEY,
  SIZE_KEY,
  SIZES,
  type Size,
} from '@piibs/shared/constants';
import { create } from 'zustand';

export type Device = 'desktop' | 'mobile';

/** Spec §4: "mobile when body width minus 1 is under 992 px, otherwise desktop". */
export function isMobileWidth(bodyWidth: number): boolean {
  return bodyWidth - 1 < MOBILE_BREAKPOINT_PX;
}

export function detectDevice(): Device {
  return isMobileWidth(document.body.getBoundingClientRect().width) ? 'mobile' : 'desktop';
}

// Storage can throw (disabled storage, some private modes); the shell then just keeps its defaults.
function readLocal(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeLocal(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Preference not kept; nothing else depends on it.
  }
}

/** Spec §3/§4: sidebarStatus '1' open / '0' closed, default open. */
function readSidebarOpened(): boolean {
  return readLocal(SIDEBAR_STATUS_KEY) !== '0';
}

function readSize(): Size {
  const stored = readLocal(SIZE_KEY);
  return (SIZES as readonly string[]).includes(stored ?? '') ? (stored as Size) : DEFAULT_SIZE;
}

interface AppState {
  sidebar: { opened: boolean; withoutAnimation: boolean };
  device: Device;
  size: Size;
  toggleSideBar(): void;
  closeSideBar(withoutAnimation: boolean): void;
  toggleDevice(device: Device): void;
  setSize(size: Size): void;
}

/**
 * The device and sidebar the shell's first render starts with. Measured when the store is made, before the
 * shell's DOM exists (nothing to lay out yet), so a phone's first render is already the mobile shell with its
 * sidebar closed, as useDeviceMode then finds it: no second render of the whole shell.
 */
export function initialShell(): Pick<AppState, 'device' | 'sidebar'> {
  const device = detectDevice();
  return {
    device,
    sidebar:
      device === 'mobile'
        ? { opened: false, withoutAnimation: true }
        : { opened: readSidebarOpened(), withoutAnimation: false },
  };
}

export const useAppStore = create<AppState>((set, get) => ({
  ...initialShell(),
  size: readSize(),
  toggleSideBar() {
    const opened = !get().sidebar.opened;
    writeLocal(SIDEBAR_STATUS_KEY, opened ? '1' : '0');
    set({ sidebar: { opened, withoutAnimation: false } });
  },
  closeSideBar(withoutAnimation) {
    writeLocal(SIDEBAR_STATUS_KEY, '0');
    const { sidebar } = get();
    // Already so: no new state, so nothing re-renders.
    if (sidebar.opened || sidebar.withoutAnimation !== withoutAnimation)
      set({ sidebar: { opened: false, withoutAnimation } });
  },
  toggleDevice: (device) => {
    if (get().device !== device) set({ device });
  },
  setSize(size) {
    writeLocal(SIZE_KEY, size);
    set({ size });
  },
}));

/** Re-reads local storage; for tests and for a new session in the same page. */
export function resetAppStore(): void {
  useAppStore.setState({
    sidebar: { opened: readSidebarOpened(), withoutAnimation: false },
    device: 'desktop',
    size: readSize(),
  });
}
