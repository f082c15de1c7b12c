import SearchOutlined from '@ant-design/icons/es/icons/SearchOutlined';
import { lazy, Suspense, useState } from 'react';
import type { SearchEntry } from './header-search.ts';

const HeaderSearchPanel = lazy(() => import('./HeaderSearchPanel.tsx'));

/** Spec §2: fuzzy search over the visible routes' titles and paths; jumps to the chosen one. */
export function HeaderSearch({ entries }: { entries: SearchEntry[] }) {
  const [open, setOpen] = useState(false);
  return (
    <div style={{ display: 'flex', alignItems: 'center' }}>
      <button
        type="button"
        className="shell-icon-button"
        aria-label="搜索菜单"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        <SearchOutlined />
      </button>
      {open && (
        <Suspense fallback={null}>
          <HeaderSearchPanel entries={entries} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
