// Review task (审核任务) calls: the queue as a CRUD-kit resource, one task, the decision and who holds it
// (领取 / 释放 / 指派).
import type {
  AssigneeOption,
  AssignForm,
  DecideForm,
  RequestMaterialsForm,
  TaskDetail,
  TaskRow,
} from '@piibs/shared/task';
import { queryOptions } from '@tanstack/react-query';
import { defineResource, postInline } from '@/components/crud/resource.ts';
import { request } from '@/lib/http.ts';

export const tasksResource = defineResource<TaskRow>({
  noun: '审核任务',
  key: ['task', 'tasks'],
  list: 'api/tasks',
  permission: {},
  rowId: (row) => row.id,
  rowLabel: (row) => row.title,
});

export const taskQuery = (id: number) =>
  queryOptions({
    queryKey: [...tasksResource.key, 'detail', id],
    queryFn: () => request<TaskDetail>({ url: `api/tasks/${id}`, method: 'get', inlineErrors: true }),
  });

export const decideTask = (id: number, form: DecideForm) =>
  postInline<TaskRow>(`api/tasks/${id}/decide`, form);

/** 要求补充资料: asks the applicant for documents; the application stays under review, the task open. */
export const requestTaskMaterials = (id: number, form: RequestMaterialsForm) =>
  postInline<TaskRow>(`api/tasks/${id}/request-materials`, form);

/** 领取: the caller takes the open task (409 when another reviewer holds it or the version is stale). */
export const claimTask = (task: Pick<TaskRow, 'id' | 'version'>) =>
  postInline<TaskRow>(`api/tasks/${task.id}/claim`, { version: task.version });

/** 释放: the holder (or a user with task:assign) puts the task back in the queue. */
export const releaseTask = (task: Pick<TaskRow, 'id' | 'version'>) =>
  postInline<TaskRow>(`api/tasks/${task.id}/release`, { version: task.version });

/** 指派 (task:assign): hands the task to a reviewer. */
export const assignTask = (id: number, form: AssignForm) =>
  postInline<TaskRow>(`api/tasks/${id}/assign`, form);

/** The reviewers a task can be assigned to. */
export const assigneesQuery = (id: number) =>
  queryOptions({
    queryKey: [...tasksResource.key, 'assignees', id],
    queryFn: () =>
      request<AssigneeOption[]>({ url: `api/tasks/${id}/assignees`, method: 'get', inlineErrors: true }),
  });

export const TASK_LIST_PATH = '/piibs/task/list';
export const auditPath = (id: number, audit: boolean) => `/piibs/task/audit/${id}/${audit}`;

/** Seconds waited, as people say it: 2天3小时, 5小时12分钟, 8分钟, 刚刚. */
export function ageText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3_600);
  const minutes = Math.floor((s % 3_600) / 60);
  if (days > 0) return hours > 0 ? `${days}天${hours}小时` : `${days}天`;
  if (hours > 0) return minutes > 0 ? `${hours}小时${minutes}分钟` : `${hours}小时`;
  if (minutes > 0) return `${minutes}分钟`;
  return '刚刚';
}
