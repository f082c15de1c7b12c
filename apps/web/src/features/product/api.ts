// Product (险种) calls: the list resource of the CRUD kit, its rate tables, and the saves.
import type {
  ProductCreateForm,
  ProductRow,
  ProductUpdateForm,
  RateTableDetail,
  RateTableRow,
  RateTableStatus,
} from '@piibs/shared/product';
import { queryOptions } from '@tanstack/react-query';
import { defineResource, postInline } from '@/components/crud/resource.ts';
import { request } from '@/lib/http.ts';

export const productsResource = defineResource<ProductRow>({
  noun: '险种',
  key: ['product', 'products'],
  list: 'api/products',
  remove: 'api/products/delete',
  download: { url: 'api/products/download', name: '险种数据' },
  permission: 'product',
  rowId: (row) => row.id,
  rowLabel: (row) => row.name,
});

export const rateTablesQuery = (productId: number) =>
  queryOptions({
    queryKey: [...productsResource.key, 'rateTables', productId],
    queryFn: () =>
      request<RateTableRow[]>({
        url: `api/products/${productId}/rateTables`,
        method: 'get',
        inlineErrors: true,
      }),
  });

export const createProduct = (form: ProductCreateForm) => postInline<ProductRow>('api/products', form);
export const updateProduct = (form: ProductUpdateForm) => postInline<ProductRow>('api/products/update', form);
export const activateRateTable = (id: number, version: number) =>
  postInline<RateTableDetail>(`api/rateTables/${id}/activate`, { version });

/** As RATE_TABLE_STATUS_LABELS of @piibs/shared/product, whose zod schemas the page does not need. */
export const RATE_TABLE_STATUS_TEXT: Readonly<Record<RateTableStatus, string>> = {
  draft: '草稿',
  active: '生效',
  retired: '已停用',
};
