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
