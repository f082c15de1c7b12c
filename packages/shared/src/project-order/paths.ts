// The kinds of declaration and the web routes of declarations, orders and tender reviews.

// ---- route parameters of /piibs/projectManage/apply/:id/:detail/:type/:status ----

/** `:type`, the kind of declaration: 1 a new project (新增项目申报), 2 a change of a declared one (批改). */
export const DECLARATION_KINDS = [1, 2] as const;
export type DeclarationKind = (typeof DECLARATION_KINDS)[number];
export const DECLARATION_KIND_LABELS: Readonly<Record<DeclarationKind, string>> = Object.freeze({
  1: '新增项目申报',
  2: '项目批改申报',
});
/** POST /api/project-orders/:id/declarations declares new projects; changes start from the project. */
export const CHANGE_FROM_PROJECT = '项目批改申报须在已出单的项目上发起（项目详情中的「申请批改」）';

/**
 * `:status`, which view of the declaration's state the page opens: 0 the declaration (form, or facts when
 * read-only), 1 its review progress (state, opinion, history), 2 its policy (once approved and issued).
 */
export const APPLY_VIEWS = ['0', '1', '2'] as const;
export type ApplyView = (typeof APPLY_VIEWS)[number];
export const APPLY_VIEW_LABELS: Readonly<Record<ApplyView, string>> = Object.freeze({
  '0': '申报信息',
  '1': '审核进度',
  '2': '项目保单',
});

/**
 * `/piibs/projectManage/apply/:id/:detail/:type/:status` (`id` 0 with `?orderId=` for a new declaration, or
 * type 2 with `?baseId=` for a change of that project).
 */
export function applyPath(
  id: number,
  opts: {
    detail?: boolean;
    type?: DeclarationKind;
    view?: ApplyView;
    orderId?: number;
    baseId?: number;
  } = {},
): string {
  const path = `/piibs/projectManage/apply/${id}/${opts.detail ?? false}/${opts.type ?? 1}/${opts.view ?? '0'}`;
  if (opts.orderId) return `${path}?orderId=${opts.orderId}`;
  return opts.baseId ? `${path}?baseId=${opts.baseId}` : path;
}
export const orderDetailPath = (id: number) => `/piibs/projectManage/orderDetail/${id}`;
export const tenderAuditPath = (taskId: number, audit: boolean) =>
  `/piibs/task/tenderAudit/${taskId}/${audit}`;
