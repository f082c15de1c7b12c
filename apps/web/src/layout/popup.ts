import {
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';

/**
 * Where a popup below its trigger sits: fixed to the viewport, its right edge under the trigger's, and no wider
 * than the room left of that edge (a phone's bell list shrinks rather than leave the screen).
 */
interface PopupPlace {
  top: number;
  right: number;
  maxWidth: number;
}

/** Kept between a popup and the screen's edges. */
const EDGE_PX = 8;

/** The place under `trigger` while `open` (read once as it opens: the popup closes on scroll and resize). */
function usePopupPlace(open: boolean, trigger: RefObject<HTMLElement | null>): PopupPlace | null {
  const [place, setPlace] = useState<PopupPlace | null>(null);
  useLayoutEffect(() => {
    const box = open ? trigger.current?.getBoundingClientRect() : undefined;
    if (!box) return setPlace(null);
    const right = Math.max(EDGE_PX, window.innerWidth - box.right);
    setPlace({ top: box.bottom + 4, right, maxWidth: window.innerWidth - right - EDGE_PX });
  }, [open, trigger]);
  return place;
}

/**
 * Closes a popup the way antd's dropdowns do: a press outside it and its trigger, Esc (the focus goes back to the
 * trigger), or the page scrolling or resizing under it (it is placed once, as it opens).
 */
function useDismiss(
  open: boolean,
  close: () => void,
  trigger: RefObject<HTMLElement | null>,
  popup: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (!open) return;
    const inside = (target: EventTarget | null) =>
      target instanceof Node && (trigger.current?.contains(target) || popup.current?.contains(target));
    const onPointerDown = (event: PointerEvent) => {
      if (!inside(event.target)) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      trigger.current?.focus();
    };
    const onMove = (event: Event) => {
      if (!inside(event.target)) close();
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('keydown', onKeyDown);
    window.addEventListener('scroll', onMove, true);
    window.addEventListener('resize', close);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('scroll', onMove, true);
      window.removeEventListener('resize', close);
    };
  }, [open, close, trigger, popup]);
}

/** Not shown until placed (its first frame). */
const UNPLACED: CSSProperties = { visibility: 'hidden' };

/**
 * A popup under a button (the navbar's menus, the bell's list), open while `open`: the refs to put on the button
 * and the popup, and the popup's style. It closes (`setOpen(false)`) as useDismiss says.
 */
export function usePopup<P extends HTMLElement>(open: boolean, setOpen: (open: boolean) => void) {
  const trigger = useRef<HTMLButtonElement>(null);
  const popup = useRef<P>(null);
  const close = useCallback(() => setOpen(false), [setOpen]);
  useDismiss(open, close, trigger, popup);
  const style: CSSProperties = usePopupPlace(open, trigger) ?? UNPLACED;
  return { trigger, popup, style };
}

/** In a menu, ↑ ↓ Home End move the focus between `items` (round; ↑ with none of them focused goes to the last). */
export function walkMenu(event: ReactKeyboardEvent, items: readonly HTMLElement[]): void {
  const at = items.indexOf(document.activeElement as HTMLElement);
  const to = { ArrowDown: at + 1, ArrowUp: at < 0 ? -1 : at - 1, Home: 0, End: -1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  items[(to + items.length) % items.length]?.focus();
}
