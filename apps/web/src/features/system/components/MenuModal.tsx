import { useQuery } from '@tanstack/react-query';
import { Col, Form, Input, InputNumber, Radio, Row, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { CrudModal } from '@/components/crud/CrudModal.tsx';
import { postInline } from '@/components/crud/resource.ts';
import { MENU_TYPES, type MenuForm, type MenuRow, menuTreeQuery } from '../api.ts';
import { SYSTEM_TEXTS as T } from '../texts.ts';
import { menuPickerData } from '../tree.ts';
import { IconPicker } from './IconPicker.tsx';

type MenuValues = Omit<MenuForm, 'parentId'> & { parentId?: number | null };

const YES_NO = [
  { value: true, label: T.yes },
  { value: false, label: T.no },
];

function toValues(menu: MenuRow): MenuValues {
  const { id: _id, hasChildren: _h, ...rest } = menu;
  return rest;
}

function body(values: MenuValues): MenuForm {
  const button = values.type === MENU_TYPES.button;
  const text = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);
  return {
    type: values.type,
    title: values.title.trim(),
    parentId: values.parentId ?? null,
    name: button ? null : text(values.name),
    icon: button ? null : (values.icon ?? null),
    path: button ? null : text(values.path),
    component: values.type === MENU_TYPES.menu ? text(values.component) : null,
    permission: values.type === MENU_TYPES.directory ? null : text(values.permission),
    hidden: button ? false : values.hidden,
    cache: button ? false : values.cache,
    affix: button ? false : values.affix,
    sort: values.sort,
  };
}

/** Create or edit a menu: directory, menu (a page) or button (a permission code). */
export function MenuModal({
  open,
  menu,
  parentId,
  onClose,
  onSaved,
}: {
  open: boolean;
  menu: MenuRow | null;
  /** The parent of a new menu (新增下级). */
  parentId?: number | null;
  onClose: () => void;
  onSaved: (saved: MenuRow, before: MenuRow | null) => void;
}) {
  const tree = useQuery({ ...menuTreeQuery, enabled: open });
  const parents = useMemo(() => menuPickerData(tree.data ?? [], menu?.id), [tree.data, menu]);

  return (
    <CrudModal<MenuValues, MenuRow>
      open={open}
      title={menu ? T.editMenu : T.addMenu}
      record={menu}
      width={720}
      toValues={toValues}
      initialValues={{
        type: parentId ? MENU_TYPES.menu : MENU_TYPES.directory,
        parentId: parentId ?? null,
        hidden: false,
        cache: false,
        affix: false,
        sort: 999,
      }}
      onClose={onClose}
      onSubmit={(values, record) =>
        record
          ? postInline<MenuRow>('api/menus/update', { id: record.id, ...body(values) })
          : postInline<MenuRow>('api/menus', body(values))
      }
      onSaved={(saved, before) => onSaved(saved as MenuRow, before)}
    >
      <Row gutter={16}>
        <Col xs={24}>
          <Form.Item name="type" label={T.menuType}>
            <Radio.Group
              optionType="button"
              buttonStyle="solid"
              options={T.menuTypes.map((label, value) => ({ label, value }))}
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="title"
            label={T.menuTitle}
            rules={[{ required: true, whitespace: true, message: T.required(T.menuTitle) }, { max: 50 }]}
          >
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="parentId" label={T.parentMenu}>
            <TreeSelect
              allowClear
              showSearch
              treeNodeFilterProp="title"
              treeData={parents}
              loading={tree.isPending}
              placeholder={T.topLevel}
              styles={{ popup: { root: { maxHeight: 400, overflow: 'auto' } } }}
            />
          </Form.Item>
        </Col>
        <Form.Item noStyle shouldUpdate={(a, b) => a.type !== b.type}>
          {({ getFieldValue }) => {
            const type = getFieldValue('type') as number;
            const button = type === MENU_TYPES.button;
            return (
              <>
                {button ? null : (
                  <>
                    <Col xs={24} sm={12}>
                      <Form.Item name="icon" label={T.icon}>
                        <IconPicker />
                      </Form.Item>
                    </Col>
                    <Col xs={24} sm={12}>
                      <Form.Item
                        name="path"
                        label={T.path}
                        tooltip={T.pathHint}
                        rules={[
                          { required: true, whitespace: true, message: T.required(T.path) },
                          { max: 200 },
                        ]}
                      >
                        <Input placeholder="user" />
                      </Form.Item>
                    </Col>
                  </>
                )}
                {type === MENU_TYPES.menu ? (
                  <>
                    <Col xs={24} sm={12}>
                      <Form.Item
                        name="component"
                        label={T.component}
                        tooltip={T.componentHint}
                        rules={[
                          { required: true, whitespace: true, message: T.required(T.component) },
                          { max: 200 },
                        ]}
                      >
                        <Input placeholder="system/Users" />
                      </Form.Item>
                    </Col>
                    <Col xs={24} sm={12}>
                      <Form.Item name="name" label={T.componentName} rules={[{ max: 50 }]}>
                        <Input />
                      </Form.Item>
                    </Col>
                  </>
                ) : null}
                {type === MENU_TYPES.directory ? null : (
                  <Col xs={24} sm={12}>
                    <Form.Item
                      name="permission"
                      label={T.permission}
                      tooltip={T.permissionHint}
                      rules={[
                        { required: button, whitespace: true, message: T.required(T.permission) },
                        { max: 100 },
                      ]}
                    >
                      <Input placeholder="user:add" />
                    </Form.Item>
                  </Col>
                )}
                <Col xs={24} sm={12}>
                  <Form.Item
                    name="sort"
                    label={T.sort}
                    rules={[{ required: true, message: T.required(T.sort) }]}
                  >
                    <InputNumber min={0} max={99999} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                {button ? null : (
                  <>
                    <Col xs={24} sm={8}>
                      <Form.Item name="hidden" label={T.hidden}>
                        <Radio.Group options={YES_NO} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} sm={8}>
                      <Form.Item name="cache" label={T.cache}>
                        <Radio.Group options={YES_NO} />
                      </Form.Item>
                    </Col>
                    <Col xs={24} sm={8}>
                      <Form.Item name="affix" label={T.affix}>
                        <Radio.Group options={YES_NO} />
                      </Form.Item>
                    </Col>
                  </>
                )}
              </>
            );
          }}
        </Form.Item>
      </Row>
    </CrudModal>
  );
}
