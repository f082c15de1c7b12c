// Which columns of a table the user hid, kept per table in local storage.
import { useCallback, useState } from 'react';

const PREFIX = 'crud-columns:';

export function columnPrefsKey(tableId: string): string {
  return `${PREFIX}${tableId}`;
}

function readHiddenColumns(tableId: string): string[] | null {
  try {
    const raw = localStorage.getItem(columnPrefsKey(tableId));
    if (raw === null) return null;
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((key): key is string => typeof key === 'string') : null;
  } catch {
    return null;
  }
}

function writeHiddenColumns(tableId: string, hidden: string[] | null): void {
  try {
    if (hidden === null) localStorage.removeItem(columnPrefsKey(tableId));
    else localStorage.setItem(columnPrefsKey(tableId), JSON.stringify(hidden));
  } catch {
    // Storage full or disabled: the choice lasts for this page only.
  }
}

/** The hidden column keys of a table (saved, else the columns hidden by default) and how to change them. */
export function useHiddenColumns(tableId: string, defaultHidden: readonly string[]) {
  const [hidden, setHidden] = useState<string[]>(() => readHiddenColumns(tableId) ?? [...defaultHidden]);
  const toggle = useCallback(
    (key: string, visible: boolean) => {
      setHidden((current) => {
        const next = visible ? current.filter((k) => k !== key) : [...new Set([...current, key])];
        writeHiddenColumns(tableId, next);
        return next;
      });
    },
    [tableId],
  );
  const reset = useCallback(() => {
    writeHiddenColumns(tableId, null);
    setHidden([...defaultHidden]);
  }, [tableId, defaultHidden]);
  return { hidden, toggle, reset };
}
