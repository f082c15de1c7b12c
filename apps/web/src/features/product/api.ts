// Product (险种) calls: the list resource of the CRUD kit, its rate tables, and the saves.
import type {
  ProductCreateForm,
  ProductRow,
  ProductUpdateForm,
  RateTableCreateForm,
  RateTableDetail,
  RateTableRow,
  RateTableStatus,
  RateTableUpdateForm,
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

/** One version with its rows and factors. */
export const rateTableQuery = (id: number) =>
  queryOptions({
    queryKey: [...productsResource.key, 'rateTable', id],
    queryFn: () =>
      request<RateTableDetail>({ url: `api/rateTables/${id}`, method: 'get', inlineErrors: true }),
  });

export const createProduct = (form: ProductCreateForm) => postInline<ProductRow>('api/products', form);
export const updateProduct = (form: ProductUpdateForm) => postInline<ProductRow>('api/products/update', form);
export const activateRateTable = (id: number, version: number) =>
  postInline<RateTableDetail>(`api/rateTables/${id}/activate`, { version });
/** A new draft version of the product's rate table. */
export const createRateTable = (productId: number, form: RateTableCreateForm) =>
  postInline<RateTableDetail>(`api/products/${productId}/rateTables`, form);
/** Replaces a draft (a stale `version`, or a version no longer a draft, answers 409). */
export const updateRateTable = (id: number, form: RateTableUpdateForm) =>
  postInline<RateTableDetail>(`api/rateTables/${id}/update`, form);
export const deleteRateTable = (id: number) => postInline<{ deleted: number }>(`api/rateTables/${id}/delete`);

/** As RATE_TABLE_STATUS_LABELS of @piibs/shared/product, whose zod schemas the page does not need. */
export const RATE_TABLE_STATUS_TEXT: Readonly<Record<RateTableStatus, string>> = {
  draft: '草稿',
  active: '生效',
  retired: '已停用',
};
