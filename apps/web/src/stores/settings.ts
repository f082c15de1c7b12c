import { DEFAULT_SETTINGS, type Settings } from '@piibs/shared/constants';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * Spec §3 settings plus dark mode, 大字模式 (large text, after the national 适老化 guideline for elderly-friendly
 * services) and the public-security (公安) filing number the footer shows.
 */
export type LayoutSettings = Settings & { dark: boolean; largeText: boolean; policeNumber: string };

export const DEFAULT_LAYOUT_SETTINGS: Readonly<LayoutSettings> = Object.freeze({
  ...DEFAULT_SETTINGS,
  dark: false,
  largeText: false,
  policeNumber: '',
});

/** What the user chooses in the settings drawer; the texts and filing numbers come from configuration. */
const USER_CHOICES = [
  'theme',
  'dark',
  'largeText',
  'tagsView',
  'fixedHeader',
  'sidebarLogo',
  'uniqueOpened',
  'showFooter',
] as const;
type UserChoice = (typeof USER_CHOICES)[number];

export const SETTINGS_STORAGE_KEY = 'layout-settings';

interface SettingsState extends LayoutSettings {
  /** Whether the settings drawer is open (not persisted). */
  drawerOpen: boolean;
  changeSetting<K extends keyof LayoutSettings>(key: K, value: LayoutSettings[K]): void;
  setDrawerOpen(open: boolean): void;
}

export const useSettingsStore = create<SettingsState>()(
  persist(
    (set) => ({
      ...DEFAULT_LAYOUT_SETTINGS,
      drawerOpen: false,
      changeSetting: (key, value) => set({ [key]: value } as Pick<LayoutSettings, typeof key>),
      setDrawerOpen: (drawerOpen) => set({ drawerOpen }),
    }),
    {
      name: SETTINGS_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      version: 1,
      partialize: (state) =>
        Object.fromEntries(USER_CHOICES.map((key) => [key, state[key]])) as Pick<LayoutSettings, UserChoice>,
    },
  ),
);

// The app open in several tabs keeps one set of choices: a choice made in another tab (the browser's `storage`
// event, fired in every other tab of the origin) applies here at once. Without it a tab would keep its old choices
// until reloaded, and its next change would write them back over the other tab's.
window.addEventListener('storage', (event) => {
  if (event.storageArea === localStorage && event.key === SETTINGS_STORAGE_KEY)
    void useSettingsStore.persist.rehydrate();
});
