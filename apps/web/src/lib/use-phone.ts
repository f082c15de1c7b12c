import { useSyncExternalStore } from 'react';

/** antd's `sm` breakpoint: below it, a phone held upright (320–575 px). */
export const PHONE = '(max-width: 575.98px)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const isPhone = () => window.matchMedia(PHONE).matches;

/** Whether the window is a phone's width; right on the first render, and follows a rotation or a resize. */
export function usePhone(): boolean {
  return useSyncExternalStore(subscribe, isPhone, () => false);
}

/** Where a table fixes its actions column: at the end, but not on a phone, where it would cover each row's name. */
export function useActionsFixed(): 'right' | undefined {
  return usePhone() ? undefined : 'right';
}
