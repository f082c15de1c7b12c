import { PlusOutlined } from '@ant-design/icons';
import { formatTime } from '@piibs/shared/constants';
import { MATERIAL_DOC_DICT } from '@piibs/shared/material';
import { formatFen, microPercentText } from '@piibs/shared/money';
import {
  type CoverageRow,
  MATERIAL_STAGE_LABELS,
  MATERIAL_STAGES,
  type ProductRow,
  type RateTableRow,
} from '@piibs/shared/product';
import { PRODUCT_CLASS_LABELS } from '@piibs/shared/rating';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { DetailTable } from '@/components/crud/DetailTable.tsx';
import { errorMessage, invalidateResource } from '@/components/crud/resource.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { dictLabel, useDict } from '@/lib/dict.tsx';
import { Can } from '@/lib/permission.tsx';
import {
  activateRateTable,
  deleteRateTable,
  productsResource,
  RATE_TABLE_STATUS_TEXT,
  rateTablesQuery,
} from '../api.ts';
import { RateTableDrawer, type RateTableTarget } from './RateTableDrawer.tsx';

const STATUS_COLORS = { draft: 'default', active: 'success', retired: 'warning' } as const;

/** 提交投保时：营业执照；核保通过前：被保险人清单 — or 无. */
function RequiredMaterialsText({ product }: { product: ProductRow }) {
  const docTypes = useDict(MATERIAL_DOC_DICT);
  const label = (code: string) => dictLabel(docTypes, code) || code;
  const parts = MATERIAL_STAGES.flatMap((stage) => {
    const docs = product.requiredMaterials.filter((m) => m.stage === stage).map((m) => label(m.docType));
    return docs.length ? [`${MATERIAL_STAGE_LABELS[stage]}：${docs.join('、')}`] : [];
  });
  return <>{parts.length ? parts.join('；') : '无'}</>;
}

const COVERAGE_COLUMNS = [
  { key: 'name', title: '责任', dataIndex: 'name' },
  {
    key: 'perPerson',
    title: '每人限额',
    dataIndex: 'perPersonLimitFen',
    render: (fen: number | null) => formatFen(fen),
  },
  {
    key: 'perAccident',
    title: '每次事故限额',
    dataIndex: 'perAccidentLimitFen',
    render: (fen: number | null) => formatFen(fen),
  },
  {
    key: 'aggregate',
    title: '累计限额',
    dataIndex: 'aggregateLimitFen',
    render: (fen: number | null) => formatFen(fen),
  },
  {
    key: 'deductible',
    title: '免赔额',
    dataIndex: 'deductibleFen',
    render: (fen: number | null) => formatFen(fen),
  },
  {
    key: 'mandatory',
    title: '必选',
    dataIndex: 'mandatory',
    render: (v: boolean) => (v ? <Tag color="blue">必选</Tag> : '可选'),
  },
];

/**
 * A product's coverages (limits in yuan) and its rate-table versions: any version opens with its rows and
 * factors; a new draft starts as a copy of the active version (else the latest); a draft can be edited,
 * activated or deleted.
 */
export function ProductDetail({ product, onClose }: { product: ProductRow | null; onClose: () => void }) {
  const { modal, message } = useAppApis();
  const client = useQueryClient();
  const tables = useQuery({ ...rateTablesQuery(product?.id ?? 0), enabled: !!product });
  // The version drawer open over this product, if any; each opening is a new drawer (its form starts from
  // what it opens). Kept with the product's id, so the next product's detail does not open it again.
  const [opened, setOpened] = useState<{ productId: number; target: RateTableTarget; n: number } | null>(
    null,
  );
  const open = (target: RateTableTarget) =>
    setOpened((o) => (product ? { productId: product.id, target, n: (o?.n ?? 0) + 1 } : null));
  const newVersion = () => {
    const list = tables.data ?? [];
    const source = list.find((t) => t.status === 'active') ?? list[0];
    open({ mode: 'create', sourceId: source?.id ?? null });
  };

  const remove = (table: RateTableRow) => {
    modal.confirm({
      title: `确定删除草稿费率表 V${table.versionNo} 吗？`,
      content: '删除后不可恢复。',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await deleteRateTable(table.id);
          void message.success(`草稿费率表 V${table.versionNo} 已删除`);
        } catch (error) {
          modal.error({ title: '无法删除', content: errorMessage(error), okText: '确定' });
        }
        await tables.refetch();
      },
    });
  };

  const activate = (table: RateTableRow) => {
    modal.confirm({
      title: `确定生效费率表 V${table.versionNo} 吗？`,
      content: '当前生效的版本将停用；已出的报价不受影响。',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await activateRateTable(table.id, table.version);
          void message.success(`费率表 V${table.versionNo} 已生效`);
        } catch (error) {
          modal.error({ title: '无法生效', content: errorMessage(error), okText: '确定' });
        }
        await Promise.all([tables.refetch(), invalidateResource(client, productsResource)]);
      },
    });
  };

  const tableColumns = [
    {
      key: 'versionNo',
      title: '版本',
      dataIndex: 'versionNo',
      render: (v: number, row: RateTableRow) => (
        <Typography.Link onClick={() => open({ mode: 'open', tableId: row.id })}>V{v}</Typography.Link>
      ),
    },
    { key: 'effectiveDate', title: '生效日期', dataIndex: 'effectiveDate' },
    {
      key: 'status',
      title: '状态',
      dataIndex: 'status',
      render: (s: RateTableRow['status']) => <Tag color={STATUS_COLORS[s]}>{RATE_TABLE_STATUS_TEXT[s]}</Tag>,
    },
    { key: 'rowCount', title: '费率行数', dataIndex: 'rowCount' },
    {
      key: 'activatedAt',
      title: '生效时间',
      dataIndex: 'activatedAt',
      render: (v: string | null, row: RateTableRow) =>
        v ? `${formatTime(v)}${row.activatedBy ? `（${row.activatedBy}）` : ''}` : '—',
    },
    { key: 'note', title: '说明', dataIndex: 'note', render: (v: string | null) => v ?? '—' },
    {
      key: 'actions',
      title: '操作',
      render: (_: unknown, row: RateTableRow) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => open({ mode: 'open', tableId: row.id })}>
            查看
          </Button>
          {row.status === 'draft' ? (
            <>
              <Can code="product:edit">
                <Button type="link" size="small" onClick={() => open({ mode: 'open', tableId: row.id })}>
                  编辑
                </Button>
                <Button type="link" size="small" onClick={() => activate(row)}>
                  激活
                </Button>
              </Can>
              <Can code="product:del">
                <Button type="link" size="small" danger onClick={() => remove(row)}>
                  删除
                </Button>
              </Can>
            </>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <Drawer open={!!product} title={product?.name} size={960} onClose={onClose} destroyOnHidden>
      {product ? (
        <>
          <Descriptions bordered size="small" column={{ xs: 1, sm: 2 }} style={{ marginBottom: 16 }}>
            <Descriptions.Item label="险种代码">{product.code}</Descriptions.Item>
            <Descriptions.Item label="险种类别">
              {PRODUCT_CLASS_LABELS[product.productClass]}
            </Descriptions.Item>
            <Descriptions.Item label="条款版本">{product.clauseVersion}</Descriptions.Item>
            <Descriptions.Item label="适用地区">{product.regionName ?? product.region}</Descriptions.Item>
            <Descriptions.Item label="有效期">
              {product.validFrom} 至 {product.validTo}
            </Descriptions.Item>
            <Descriptions.Item label="允许共保">
              {product.allowsCoinsurance
                ? `是（${product.issuerLeads ? '本公司为主承保' : '可由共保公司主承保'}）`
                : '否'}
            </Descriptions.Item>
            <Descriptions.Item label="从业人员名单">
              {product.namedInsuredRequired ? '需要（参保人数按名单计）' : '不需要'}
            </Descriptions.Item>
            <Descriptions.Item label="最低保费">
              {product.minPremiumFen ? formatFen(product.minPremiumFen) : '不设'}
            </Descriptions.Item>
            {product.productClass === 'construction' ? (
              <Descriptions.Item label="最低工程造价">
                {product.minProjectCostFen ? formatFen(product.minProjectCostFen) : '不设'}
              </Descriptions.Item>
            ) : null}
            <Descriptions.Item label="必备资料" span={2}>
              <RequiredMaterialsText product={product} />
            </Descriptions.Item>
            <Descriptions.Item label="事故预防费用比例">
              {microPercentText(product.preventionRatioMin)}% – {microPercentText(product.preventionRatioMax)}
              %
            </Descriptions.Item>
            <Descriptions.Item label="手续费比例上限">
              {microPercentText(product.commissionCap)}%
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>责任</Typography.Title>
          <DetailTable<CoverageRow>
            noun="责任"
            size="small"
            rowKey="id"
            columns={COVERAGE_COLUMNS}
            dataSource={product.coverages}
            locale={{ emptyText: '暂无责任' }}
            style={{ marginBottom: 16 }}
          />
          <Space style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 8 }}>
            <Typography.Title level={5} style={{ margin: 0 }}>
              费率表
            </Typography.Title>
            <Can code="product:edit">
              <Button size="small" icon={<PlusOutlined />} disabled={!tables.isSuccess} onClick={newVersion}>
                新建版本
              </Button>
            </Can>
          </Space>
          <DetailTable<RateTableRow>
            noun="费率表"
            size="small"
            rowKey="id"
            loading={tables.isFetching}
            columns={tableColumns}
            dataSource={tables.data ?? []}
            locale={{ emptyText: tables.isError ? errorMessage(tables.error) : '暂无费率表' }}
          />
          {opened?.productId === product.id ? (
            <RateTableDrawer
              key={opened.n}
              product={product}
              target={opened.target}
              onClose={() => setOpened(null)}
            />
          ) : null}
        </>
      ) : null}
    </Drawer>
  );
}
