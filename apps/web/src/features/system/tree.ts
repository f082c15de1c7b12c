// Tree helpers for the department and menu pickers.
import type { DeptNode } from '@piibs/shared/admin';
import type { MenuTreeNode } from './api.ts';

export interface PickerNode<V> {
  value: V;
  title: string;
  key: string;
  disabled?: boolean;
  children?: PickerNode<V>[];
}

/** Departments as TreeSelect data; `exclude` drops a department and its subtree (a parent cannot be its own child). */
export function deptPickerData(nodes: readonly DeptNode[], exclude?: number): PickerNode<number>[] {
  return nodes
    .filter((node) => node.id !== exclude)
    .map((node) => {
      const children = deptPickerData(node.children ?? [], exclude);
      return {
        value: node.id,
        key: String(node.id),
        title: node.enabled ? node.name : `${node.name}（停用）`,
        ...(children.length ? { children } : {}),
      };
    });
}

export function menuPickerData(nodes: readonly MenuTreeNode[], exclude?: number): PickerNode<number>[] {
  return nodes
    .filter((node) => node.id !== exclude)
    .map((node) => {
      const children = menuPickerData(node.children ?? [], exclude);
      return {
        value: node.id,
        key: String(node.id),
        title: node.label,
        ...(children.length ? { children } : {}),
      };
    });
}

/** Every id of a tree. */
export function treeIds<T extends { id: number; children?: T[] | undefined }>(nodes: readonly T[]): number[] {
  return nodes.flatMap((node) => [node.id, ...treeIds(node.children ?? [])]);
}

/** Ids of the nodes that have children. */
export function parentIds<T extends { id: number; children?: T[] | undefined }>(
  nodes: readonly T[],
): number[] {
  return nodes.flatMap((node) => (node.children?.length ? [node.id, ...parentIds(node.children)] : []));
}

/**
 * The checked keys to show for a grant: only the leaves it holds. A Tree that conducts checks derives the
 * parents from them, and a parent listed itself would check all its children.
 */
export function checkedLeaves<T extends { id: number; children?: T[] | undefined }>(
  nodes: readonly T[],
  granted: ReadonlySet<number>,
): number[] {
  return nodes.flatMap((node) =>
    node.children?.length ? checkedLeaves(node.children, granted) : granted.has(node.id) ? [node.id] : [],
  );
}
