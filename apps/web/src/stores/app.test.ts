import { DEFAULT_SIZE, SIDEBAR_STATUS_KEY, SIZE_KEY } from '@piibs/shared/constants';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { initialShell, isMobileWidth, resetAppStore, useAppStore } from './app.ts';

beforeEach(() => {
  localStorage.clear();
  resetAppStore();
});

describe('sidebarStatus persistence', () => {
  it('the sidebar is open by default when nothing is stored', () => {
    expect(useAppStore.getState().sidebar.opened).toBe(true);
  });

  it("toggling stores '0' when closed and '1' when open", () => {
    useAppStore.getState().toggleSideBar();
    expect(useAppStore.getState().sidebar.opened).toBe(false);
    expect(localStorage.getItem(SIDEBAR_STATUS_KEY)).toBe('0');
    useAppStore.getState().toggleSideBar();
    expect(useAppStore.getState().sidebar.opened).toBe(true);
    expect(localStorage.getItem(SIDEBAR_STATUS_KEY)).toBe('1');
  });

  it("a new session reads the stored status ('0' closed, '1' open)", () => {
    localStorage.setItem(SIDEBAR_STATUS_KEY, '0');
    resetAppStore();
    expect(useAppStore.getState().sidebar.opened).toBe(false);
    localStorage.setItem(SIDEBAR_STATUS_KEY, '1');
    resetAppStore();
    expect(useAppStore.getState().sidebar.opened).toBe(true);
  });

  it('closing the sidebar without animation records the flag and the closed status', () => {
    useAppStore.getState().closeSideBar(true);
    expect(useAppStore.getState().sidebar).toEqual({ opened: false, withoutAnimation: true });
    expect(localStorage.getItem(SIDEBAR_STATUS_KEY)).toBe('0');
  });
});

describe('the first render', () => {
  it('starts as the mobile shell with the sidebar closed on a phone, and as stored on a desktop', () => {
    const cases = [
      [375, 'mobile', false],
      [1280, 'desktop', true],
    ] as const;
    for (const [width, device, opened] of cases) {
      const body = vi.spyOn(document.body, 'getBoundingClientRect').mockReturnValue({ width } as DOMRect);
      // What the store starts with when it is made (stores/app.ts), measured at this width.
      expect(initialShell()).toMatchObject({ device, sidebar: { opened } });
      body.mockRestore();
    }
  });

  it('what the shell finds on mount already so changes no state (nothing re-renders)', () => {
    const app = useAppStore.getState();
    app.toggleDevice('mobile');
    app.closeSideBar(true);
    const before = useAppStore.getState();
    before.toggleDevice('mobile');
    before.closeSideBar(true);
    expect(useAppStore.getState()).toBe(before);
    expect(localStorage.getItem(SIDEBAR_STATUS_KEY)).toBe('0');
  });
});

describe('device breakpoint 992', () => {
  it('is mobile when body width minus 1 is under 992 px', () => {
    expect(isMobileWidth(375)).toBe(true);
    expect(isMobileWidth(991)).toBe(true);
    // 992 - 1 = 991 < 992: still mobile; 993 - 1 = 992: desktop.
    expect(isMobileWidth(992)).toBe(true);
    expect(isMobileWidth(993)).toBe(false);
    expect(isMobileWidth(1280)).toBe(false);
  });
});

describe('layout size', () => {
  it('defaults to the shared default and persists a change under the size key', () => {
    expect(useAppStore.getState().size).toBe(DEFAULT_SIZE);
    useAppStore.getState().setSize('mini');
    expect(localStorage.getItem(SIZE_KEY)).toBe('mini');
    resetAppStore();
    expect(useAppStore.getState().size).toBe('mini');
  });

  it('ignores an unknown stored size', () => {
    localStorage.setItem(SIZE_KEY, 'huge');
    resetAppStore();
    expect(useAppStore.getState().size).toBe(DEFAULT_SIZE);
  });
});
