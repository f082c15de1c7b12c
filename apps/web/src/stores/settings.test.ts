import { DEFAULT_SETTINGS } from '@piibs/shared/constants';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT_SETTINGS, SETTINGS_STORAGE_KEY, useSettingsStore } from './settings.ts';

beforeEach(() => {
  useSettingsStore.setState({ ...DEFAULT_LAYOUT_SETTINGS, drawerOpen: false });
  localStorage.clear();
});

describe('settings persisted', () => {
  it('start from DEFAULT_SETTINGS (theme #1890ff, every layout switch on) with dark mode off', () => {
    const state = useSettingsStore.getState();
    expect(state.theme).toBe('#1890ff');
    for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof typeof DEFAULT_SETTINGS)[]) {
      expect(state[key]).toBe(DEFAULT_SETTINGS[key]);
    }
    expect(state.dark).toBe(false);
  });

  it('writes each choice to local storage at once', () => {
    useSettingsStore.getState().changeSetting('theme', '#13c2c2');
    useSettingsStore.getState().changeSetting('showFooter', false);
    useSettingsStore.getState().changeSetting('dark', true);
    const stored = JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY) ?? '{}');
    expect(stored.state).toMatchObject({ theme: '#13c2c2', showFooter: false, dark: true });
    // Open/closed state of the drawer is not a preference.
    expect(stored.state).not.toHaveProperty('drawerOpen');
  });

  it('restores the stored choices in a new session', async () => {
    localStorage.setItem(
      SETTINGS_STORAGE_KEY,
      JSON.stringify({ state: { tagsView: false, uniqueOpened: false, theme: '#f5222d' }, version: 1 }),
    );
    await useSettingsStore.persist.rehydrate();
    const state = useSettingsStore.getState();
    expect(state.tagsView).toBe(false);
    expect(state.uniqueOpened).toBe(false);
    expect(state.theme).toBe('#f5222d');
    expect(state.fixedHeader).toBe(true);
  });
});

describe('settings in several tabs', () => {
  /** What the browser does in this tab when another tab of the app writes its settings. */
  function writtenInAnotherTab(state: Partial<typeof DEFAULT_LAYOUT_SETTINGS>) {
    const newValue = JSON.stringify({ state: { ...DEFAULT_LAYOUT_SETTINGS, ...state }, version: 1 });
    localStorage.setItem(SETTINGS_STORAGE_KEY, newValue);
    window.dispatchEvent(
      new StorageEvent('storage', { key: SETTINGS_STORAGE_KEY, newValue, storageArea: localStorage }),
    );
  }

  it('a theme colour and dark mode chosen in another tab apply here at once', () => {
    writtenInAnotherTab({ theme: '#11a983', dark: true });
    const state = useSettingsStore.getState();
    expect(state.theme).toBe('#11a983');
    expect(state.dark).toBe(true);
  });

  it('a change made here afterwards keeps the other tab’s choices', () => {
    writtenInAnotherTab({ largeText: true });
    useSettingsStore.getState().changeSetting('showFooter', false);
    const stored = JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY) ?? '{}');
    expect(stored.state).toMatchObject({ largeText: true, showFooter: false });
  });

  it('other keys written by another tab leave the settings as they are', () => {
    useSettingsStore.getState().changeSetting('theme', '#f5222d');
    localStorage.setItem('sidebarStatus', '0');
    window.dispatchEvent(new StorageEvent('storage', { key: 'sidebarStatus', storageArea: localStorage }));
    expect(useSettingsStore.getState().theme).toBe('#f5222d');
  });
});
