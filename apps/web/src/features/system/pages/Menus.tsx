import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Flex, Space, Table, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { type Key, useMemo, useState } from 'react';
import { useDeleteRows } from '@/components/crud/actions.tsx';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { RowAction } from '@/components/crud/RowAction.tsx';
import { errorMessage } from '@/components/crud/resource.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { MenuIcon } from '@/lib/icons.tsx';
import { Can } from '@/lib/permission.tsx';
import { useActionsFixed } from '@/lib/use-phone.ts';
import { usePermissionStore } from '@/stores/permission.ts';
import { fetchMenuLevel, MENU_TYPES, type MenuRow, menusResource } from '../api.ts';
import { MenuModal } from '../components/MenuModal.tsx';
import { SYSTEM_TEXTS as T } from '../texts.ts';

const SEARCH: SearchField[] = [{ kind: 'input', name: 'title', label: T.menuTitle }];
const FILTER_KEYS = searchKeys(SEARCH);

type MenuNode = MenuRow & { children?: MenuNode[] };

const levelKey = (query: { pid?: number; title?: string }) => [...menusResource.key, 'level', query] as const;

const TYPE_TAGS = [
  <Tag key="d" color="processing">
    {T.menuTypes[0]}
  </Tag>,
  <Tag key="m" color="success">
    {T.menuTypes[1]}
  </Tag>,
  <Tag key="b" color="warning">
    {T.menuTypes[2]}
  </Tag>,
];

/** The sidebar follows menu changes at once: the caller's route tree is loaded again. */
function reloadShellMenus(): void {
  void usePermissionStore
    .getState()
    .loadMenus()
    .catch(() => {});
}

/** 菜单管理: a tree table that loads each level when it is opened; a title search lists the matches flat. */
export default function Menus() {
  const list = useListState({ filterKeys: FILTER_KEYS });
  const title = list.filters.title;
  const client = useQueryClient();
  const [expanded, setExpanded] = useState<number[]>([]);
  const [form, setForm] = useState<{ open: boolean; menu: MenuRow | null; parentId: number | null }>({
    open: false,
    menu: null,
    parentId: null,
  });

  const top = useQuery({
    queryKey: levelKey(title ? { title } : {}),
    queryFn: () => fetchMenuLevel(title ? { title } : {}),
  });
  const levels = useQueries({
    queries: (title ? [] : expanded).map((pid) => ({
      queryKey: levelKey({ pid }),
      queryFn: () => fetchMenuLevel({ pid }),
    })),
  });

  const rows = useMemo(() => {
    const byParent = new Map<number, MenuRow[]>();
    (title ? [] : expanded).forEach((pid, index) => {
      const data = levels[index]?.data;
      if (data) byParent.set(pid, data);
    });
    const build = (menus: readonly MenuRow[]): MenuNode[] =>
      menus.map((menu) => {
        if (title || !menu.hasChildren) return menu;
        const children = byParent.get(menu.id);
        // An empty list until the level arrives: the row shows its expand button meanwhile.
        return { ...menu, children: children ? build(children) : [] };
      });
    return build(top.data ?? []);
  }, [top.data, levels, expanded, title]);

  const loading = top.isFetching || levels.some((level) => level.isFetching);

  const refresh = () => client.invalidateQueries({ queryKey: menusResource.key });
  const deleteRows = useDeleteRows(menusResource, {
    warning: T.deleteMenuWarning,
    onDeleted: reloadShellMenus,
  });

  const actionsFixed = useActionsFixed();
  const columns: TableColumnsType<MenuNode> = [
    {
      key: 'title',
      title: T.menuTitle,
      dataIndex: 'title',
      width: 240,
      render: (text: string, menu) => (
        <Space size={6}>
          {menu.icon ? <MenuIcon name={menu.icon} /> : null}
          <Typography.Text strong={menu.type !== MENU_TYPES.button}>{text}</Typography.Text>
        </Space>
      ),
    },
    {
      key: 'type',
      title: T.menuType,
      dataIndex: 'type',
      width: 80,
      render: (type: number) => TYPE_TAGS[type],
    },
    {
      key: 'permission',
      title: T.permission,
      dataIndex: 'permission',
      render: (v: string | null) => (v ? <Typography.Text code>{v}</Typography.Text> : T.none),
    },
    { key: 'path', title: T.path, dataIndex: 'path', render: (v: string | null) => v ?? T.none },
    {
      key: 'component',
      title: T.component,
      dataIndex: 'component',
      render: (v: string | null) => v ?? T.none,
    },
    { key: 'sort', title: T.sort, dataIndex: 'sort', width: 70 },
    {
      key: 'flags',
      title: T.menuFlags,
      width: 140,
      render: (_, menu) =>
        menu.type === MENU_TYPES.button ? (
          T.none
        ) : (
          <Space size={4} wrap>
            {menu.hidden ? <Tag>{T.hidden.replace('是否', '')}</Tag> : null}
            {menu.cache ? <Tag color="cyan">{T.cache.replace('是否', '')}</Tag> : null}
            {menu.affix ? <Tag color="purple">{T.affix}</Tag> : null}
            {!menu.hidden && !menu.cache && !menu.affix ? T.none : null}
          </Space>
        ),
    },
    {
      key: 'actions',
      title: T.actions,
      fixed: actionsFixed,
      width: 200,
      render: (_, menu) => (
        <Space size={0}>
          {menu.type === MENU_TYPES.button ? null : (
            <RowAction
              permission="menu:add"
              onClick={() => setForm({ open: true, menu: null, parentId: menu.id })}
            >
              {T.addChildMenu}
            </RowAction>
          )}
          <RowAction permission="menu:edit" onClick={() => setForm({ open: true, menu, parentId: null })}>
            {T.edit}
          </RowAction>
          <RowAction permission="menu:del" danger onClick={() => deleteRows([menu])}>
            {T.delete}
          </RowAction>
        </Space>
      ),
    },
  ];

  return (
    <CrudPage>
      <SearchForm fields={SEARCH} list={list} />
      <Flex justify="space-between" align="center" style={{ marginBottom: 12 }}>
        <Can code="menu:add">
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setForm({ open: true, menu: null, parentId: null })}
          >
            {T.add}
          </Button>
        </Can>
        <Tooltip title={T.refresh}>
          <Button
            aria-label={T.refresh}
            icon={<ReloadOutlined spin={loading} />}
            onClick={() => void refresh()}
          />
        </Tooltip>
      </Flex>
      <Table<MenuNode>
        size="middle"
        rowKey="id"
        columns={columns}
        dataSource={rows}
        loading={loading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        expandable={{
          expandedRowKeys: expanded,
          onExpandedRowsChange: (keys: readonly Key[]) => setExpanded(keys.map(Number)),
        }}
        locale={{
          emptyText: top.isError ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={errorMessage(top.error)}>
              <Button type="primary" onClick={() => void top.refetch()}>
                {T.retry}
              </Button>
            </Empty>
          ) : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={title ? `没有标题包含「${title}」的菜单` : '暂无菜单'}
            />
          ),
        }}
      />
      <MenuModal
        open={form.open}
        menu={form.menu}
        parentId={form.parentId}
        onClose={() => setForm((current) => ({ ...current, open: false }))}
        onSaved={(saved) => {
          // Open the parent so the new or moved menu is in view.
          if (saved.parentId && !expanded.includes(saved.parentId))
            setExpanded([...expanded, saved.parentId]);
          void refresh();
          reloadShellMenus();
        }}
      />
    </CrudPage>
  );
}
