import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { createRouteSearch, type SearchEntry } from './header-search.ts';

type Option = { label: string; value: string };

/** The search box itself, loaded on the first click so fuse.js stays out of the shell's first load. */
export default function HeaderSearchPanel({ entries, onClose }: { entries: SearchEntry[]; onClose(): void }) {
  const navigate = useNavigate();
  const search = useMemo(() => createRouteSearch(entries), [entries]);
  const [options, setOptions] = useState<Option[]>([]);
  return (
    <Select<string, Option>
      className="shell-search-panel"
      aria-label="菜单搜索"
      placeholder="搜索"
      autoFocus
      defaultOpen
      showSearch={{
        filterOption: false,
        onSearch: (query) =>
          setOptions(search(query).map((entry) => ({ label: entry.title.join(' > '), value: entry.path }))),
      }}
      options={options}
      notFoundContent={null}
      onChange={(path) => {
        navigate(path);
        onClose();
      }}
      onBlur={onClose}
    />
  );
}
