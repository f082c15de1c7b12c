import { useState } from 'react';

/**
 * Whether `open` has been true at some point in the component's life: what is made on first opening (a drawer's
 * code, the phone sidebar's menu) then stays, so it can animate closed.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
