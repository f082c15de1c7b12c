import { SaveOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Flex, Space, Spin, Tree, Typography } from 'antd';
import type { Key } from 'react';
import { useEffect, useMemo, useState } from 'react';
import { errorMessage } from '@/components/crud/resource.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can, useCan } from '@/lib/permission.tsx';
import { grantRoleMenus, type MenuTreeNode, menuTreeQuery, roleDetailQuery, rolesResource } from '../api.ts';
import { SYSTEM_TEXTS as T } from '../texts.ts';
import { checkedLeaves, parentIds, treeIds } from '../tree.ts';

type TreeNode = { key: number; title: string; children?: TreeNode[] };

function toTreeData(nodes: readonly MenuTreeNode[]): TreeNode[] {
  return nodes.map((node) => ({
    key: node.id,
    title: node.label,
    ...(node.children?.length ? { children: toTreeData(node.children) } : {}),
  }));
}

/**
 * What a role is granted: the checked menus and buttons plus every ancestor of one (a page needs its
 * directories to appear in the menu tree the server builds).
 */
export function grantedIds(nodes: readonly MenuTreeNode[], checked: ReadonlySet<number>): number[] {
  const out: number[] = [];
  const walk = (node: MenuTreeNode): boolean => {
    let any = checked.has(node.id);
    for (const child of node.children ?? []) any = walk(child) || any;
    if (any) out.push(node.id);
    return any;
  };
  for (const node of nodes) walk(node);
  return out.sort((a, b) => a - b);
}

/** The menus and buttons of one role, as a checkable tree; 保存 replaces the role's grant. */
export function RoleMenuPanel({ roleId }: { roleId: number }) {
  const canList = useCan('menu:list');
  const canEdit = useCan('role:edit');
  const tree = useQuery({ ...menuTreeQuery, enabled: canList });
  const role = useQuery(roleDetailQuery(roleId));
  const client = useQueryClient();
  const { message } = useAppApis();
  const [checked, setChecked] = useState<number[]>([]);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const [saving, setSaving] = useState(false);
  const [dirty, setDirty] = useState(false);

  const data = useMemo(() => toTreeData(tree.data ?? []), [tree.data]);
  const allParents = useMemo(() => parentIds(tree.data ?? []), [tree.data]);

  // Show the role's grant whenever the role or the tree (re)loads.
  useEffect(() => {
    if (!tree.data || !role.data) return;
    setChecked(checkedLeaves(tree.data, new Set(role.data.menuIds)));
    setDirty(false);
  }, [tree.data, role.data]);

  // The top level opens by default; the rest on demand.
  useEffect(() => {
    setExpanded((tree.data ?? []).filter((node) => node.children?.length).map((node) => node.id));
  }, [tree.data]);

  if (!canList) return <Alert type="info" showIcon title={T.menuGrantNoPermission} />;
  if (tree.isPending || role.isPending) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  if (tree.isError || role.isError) {
    return (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={errorMessage(tree.error ?? role.error)}>
        <Button onClick={() => void Promise.all([tree.refetch(), role.refetch()])}>{T.retry}</Button>
      </Empty>
    );
  }

  const save = async () => {
    setSaving(true);
    try {
      await grantRoleMenus(roleId, grantedIds(tree.data, new Set(checked)));
      void message.success(T.menuGrantSaved);
      setDirty(false);
      await client.invalidateQueries({ queryKey: [...rolesResource.key, 'detail', roleId] });
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <Typography.Text strong>{T.menuGrantFor(role.data.name)}</Typography.Text>
        <Space size={4} wrap>
          <Button size="small" type="link" onClick={() => setExpanded(allParents)}>
            {T.expandAll}
          </Button>
          <Button size="small" type="link" onClick={() => setExpanded([])}>
            {T.collapseAll}
          </Button>
          <Can code="role:edit">
            <Button
              size="small"
              type="link"
              onClick={() => {
                setChecked(treeIds(tree.data));
                setDirty(true);
              }}
            >
              {T.checkAll}
            </Button>
            <Button
              size="small"
              type="link"
              onClick={() => {
                setChecked([]);
                setDirty(true);
              }}
            >
              {T.uncheckAll}
            </Button>
          </Can>
        </Space>
      </Flex>
      <div style={{ maxHeight: 'calc(100vh - 320px)', minHeight: 240, overflow: 'auto' }}>
        <Tree<TreeNode>
          checkable
          blockNode
          selectable={false}
          disabled={!canEdit}
          treeData={data}
          checkedKeys={checked}
          expandedKeys={expanded}
          onExpand={(keys) => setExpanded(keys)}
          onCheck={(keys) => {
            const list = Array.isArray(keys) ? keys : keys.checked;
            setChecked(list.map(Number));
            setDirty(true);
          }}
        />
      </div>
      <Can code="role:edit">
        <Button
          type="primary"
          icon={<SaveOutlined />}
          block
          loading={saving}
          disabled={!dirty}
          onClick={() => void save()}
          style={{ marginTop: 16 }}
        >
          {T.save}
        </Button>
      </Can>
    </div>
  );
}
