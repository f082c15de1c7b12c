import { type KeyboardEvent, type ReactNode, useId, useState } from 'react';
import { usePopup, walkMenu } from './popup.ts';

export interface MenuEntry {
  key: string;
  label: string;
  /** Shown, not chosen (the size in use). */
  disabled?: boolean;
  /** A line above the entry. */
  dividerBefore?: boolean;
}

interface MenuButtonProps {
  /** The button's accessible name. */
  label: string;
  className?: string;
  entries: readonly MenuEntry[];
  onSelect(key: string): void;
  children: ReactNode;
}

/**
 * The navbar's menu buttons (avatar, size), drawn by the shell rather than antd's Dropdown, so a signed-in first
 * load carries no popup library. The WAI-ARIA menu button: Enter, Space or ↓ opens the menu on its first entry
 * (↑ on its last), ↑ ↓ Home End walk the entries that can be chosen, Enter or Space chooses one, Esc closes it and
 * gives the focus back to the button, Tab or a press outside closes it.
 */
export function MenuButton({ label, className, entries, onSelect, children }: MenuButtonProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const { trigger: button, popup: menu, style } = usePopup<HTMLDivElement>(open, setOpen);

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  const enabled = () => items().filter((item) => item.getAttribute('aria-disabled') !== 'true');
  const focusAt = (pick: (list: HTMLElement[]) => HTMLElement | undefined) => pick(enabled())?.focus();
  /** Opens the menu and, once drawn, focuses an entry. */
  const openAt = (pick: (list: HTMLElement[]) => HTMLElement | undefined) => {
    setOpen(true);
    setTimeout(() => focusAt(pick), 0);
  };
  const first = (list: HTMLElement[]) => list[0];
  const last = (list: HTMLElement[]) => list.at(-1);

  const choose = (entry: MenuEntry) => {
    if (entry.disabled) return;
    setOpen(false);
    button.current?.focus();
    onSelect(entry.key);
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? first : last);
    }
  };
  const onMenuKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Tab') setOpen(false);
    else walkMenu(event, enabled());
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className={className}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        // A click by the pointer opens the menu; by Enter or Space (a click without a pointer) it also puts the
        // focus on its first entry.
        onClick={(event) => (open ? setOpen(false) : event.detail === 0 ? openAt(first) : setOpen(true))}
        onKeyDown={onButtonKeyDown}
      >
        {children}
      </button>
      {open && (
        <div
          ref={menu}
          id={id}
          role="menu"
          aria-label={label}
          className="shell-popup shell-menu"
          style={style}
          onKeyDown={onMenuKeyDown}
        >
          {entries.map((entry) => [
            entry.dividerBefore && <hr key={`${entry.key}-divider`} />,
            <div
              key={entry.key}
              role="menuitem"
              tabIndex={-1}
              aria-disabled={entry.disabled || undefined}
              onClick={() => choose(entry)}
              onKeyDown={(event) => {
                if (event.key !== 'Enter' && event.key !== ' ') return;
                event.preventDefault();
                choose(entry);
              }}
            >
              {entry.label}
            </div>,
          ])}
        </div>
      )}
    </>
  );
}
