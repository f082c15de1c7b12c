import { PlusOutlined } from '@ant-design/icons';
import { formatTime } from '@piibs/shared/constants';
import type { ProductRow } from '@piibs/shared/product';
import { PRODUCT_CLASS_LABELS, PRODUCT_CLASSES, type ProductClass } from '@piibs/shared/rating';
import { Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useDeleteRows } from '@/components/crud/actions.tsx';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { RowAction } from '@/components/crud/RowAction.tsx';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { Can } from '@/lib/permission.tsx';
import { productsResource } from '../api.ts';
import { ProductDetail } from '../components/ProductDetail.tsx';
import { ProductModal } from '../components/ProductModal.tsx';

const SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: '关键词', placeholder: '险种代码或名称' },
  {
    kind: 'select',
    name: 'productClass',
    label: '险种类别',
    options: PRODUCT_CLASSES.map((value) => ({ value, label: PRODUCT_CLASS_LABELS[value] })),
    width: 220,
  },
  {
    kind: 'select',
    name: 'enabled',
    label: '状态',
    options: [
      { value: 'true', label: '启用' },
      { value: 'false', label: '停用' },
    ],
    width: 110,
  },
];
const FILTER_KEYS = searchKeys(SEARCH);

/** 险种与责任 (product/Risk): products with their coverages and rate-table versions. */
export default function Risk() {
  const list = useListState({ filterKeys: FILTER_KEYS, defaultSort: 'code,asc' });
  const [detail, setDetail] = useState<ProductRow | null>(null);
  const [editing, setEditing] = useState<ProductRow | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const deleteRows = useDeleteRows(productsResource);

  const open = (product: ProductRow | null) => {
    setEditing(product);
    setFormOpen(true);
  };

  const columns: CrudColumn<ProductRow>[] = [
    { key: 'code', title: '险种代码', dataIndex: 'code', sortField: 'code', alwaysVisible: true },
    {
      key: 'name',
      title: '险种名称',
      dataIndex: 'name',
      sortField: 'name',
      render: (name: string, row) => <Typography.Link onClick={() => setDetail(row)}>{name}</Typography.Link>,
    },
    {
      key: 'productClass',
      title: '险种类别',
      dataIndex: 'productClass',
      sortField: 'productClass',
      render: (v: ProductClass) => PRODUCT_CLASS_LABELS[v] ?? v,
    },
    {
      key: 'region',
      title: '适用地区',
      dataIndex: 'region',
      sortField: 'region',
      render: (_, row) => row.regionName ?? row.region,
    },
    {
      key: 'valid',
      title: '有效期',
      render: (_, row) => `${row.validFrom} 至 ${row.validTo}`,
    },
    {
      key: 'coverages',
      title: '责任',
      render: (_, row) => `${row.coverages.length} 项`,
    },
    {
      key: 'rateTable',
      title: '生效费率表',
      render: (_, row) =>
        row.activeRateTable
          ? `V${row.activeRateTable.versionNo}（${row.activeRateTable.effectiveDate}）`
          : '—',
    },
    {
      key: 'enabled',
      title: '状态',
      dataIndex: 'enabled',
      sortField: 'enabled',
      render: (v: boolean) => <Tag color={v ? 'success' : 'default'}>{v ? '启用' : '停用'}</Tag>,
    },
    {
      key: 'updatedAt',
      title: '更新时间',
      dataIndex: 'updatedAt',
      sortField: 'updatedAt',
      defaultHidden: true,
      render: (v: string) => formatTime(v),
    },
    {
      key: 'actions',
      title: '操作',
      alwaysVisible: true,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setDetail(row)}>
            详情
          </Button>
          <RowAction permission="product:edit" onClick={() => open(row)}>
            编辑
          </RowAction>
          <RowAction permission="product:del" danger onClick={() => deleteRows([row])}>
            删除
          </RowAction>
        </Space>
      ),
    },
  ];

  return (
    <CrudPage>
      <SearchForm fields={SEARCH} list={list} />
      <CrudTable<ProductRow>
        id="product.products"
        resource={productsResource}
        list={list}
        columns={columns}
        toolbar={
          <Can code="product:add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open(null)}>
              新增
            </Button>
          </Can>
        }
      />
      <ProductDetail product={detail} onClose={() => setDetail(null)} />
      <ProductModal open={formOpen} product={editing} onClose={() => setFormOpen(false)} />
    </CrudPage>
  );
}
