import type { DeptNode } from '@piibs/shared/admin';
import { useQuery } from '@tanstack/react-query';
import { Empty, Input, Spin, Tree, type TreeDataNode, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { deptTreeQuery } from '../api.ts';
import { SYSTEM_TEXTS as T } from '../texts.ts';

/** The departments matching a search, with their ancestors so they stay in place. */
function filterTree(nodes: readonly DeptNode[], text: string): TreeDataNode[] {
  return nodes.flatMap((node): TreeDataNode[] => {
    const children = filterTree(node.children ?? [], text);
    const matches = !text || node.name.includes(text);
    if (!matches && children.length === 0) return [];
    return [
      {
        key: String(node.id),
        title: node.enabled ? node.name : <Typography.Text type="secondary">{node.name}</Typography.Text>,
        ...(children.length ? { children } : {}),
      },
    ];
  });
}

/** The department tree beside the user list: picking a department filters the list (with its sub-departments). */
export function DeptTree({
  selected,
  onSelect,
}: {
  selected: string | undefined;
  onSelect: (id?: string) => void;
}) {
  const depts = useQuery(deptTreeQuery);
  const [text, setText] = useState('');
  const data = useMemo(() => filterTree(depts.data ?? [], text.trim()), [depts.data, text]);

  return (
    <div>
      <Input.Search
        allowClear
        placeholder={T.deptSearch}
        onChange={(event) => setText(event.target.value)}
        style={{ marginBottom: 12 }}
      />
      <Typography.Link
        onClick={() => onSelect(undefined)}
        strong={!selected}
        style={{ display: 'block', marginBottom: 8, paddingInline: 4 }}
      >
        {T.allDepts}
      </Typography.Link>
      {depts.isPending ? (
        <Spin style={{ display: 'block', margin: '24px auto' }} />
      ) : data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Tree
          key={text}
          blockNode
          defaultExpandAll
          treeData={data}
          selectedKeys={selected ? [selected] : []}
          onSelect={(keys) => onSelect(keys[0] === undefined ? undefined : String(keys[0]))}
        />
      )}
    </div>
  );
}
