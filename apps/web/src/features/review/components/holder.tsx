// Who holds a review task (处理人), shared by the list and the audit pages: 领取 (the caller takes an unheld
// task), 释放 (the holder, or a user with task:assign, puts it back) and 指派 (task:assign: a reviewer chosen
// from those who may decide it). The server decides; a refusal shows its message and the task is reloaded.
import { TASK_ASSIGN_PERMISSION } from '@piibs/shared/review';
import type { TaskDetail, TaskRow } from '@piibs/shared/task';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Modal, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { invalidateResource, serverError } from '@/components/crud/resource.ts';
import { applyServerErrors } from '@/components/form/server-errors.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { useCan } from '@/lib/permission.tsx';
import { useUserStore } from '@/stores/user.ts';
import { assigneesQuery, assignTask, claimTask, releaseTask, taskQuery, tasksResource } from '../api.ts';

export const HOLDER_TEXTS = Object.freeze({
  holder: '处理人',
  unheld: '未领取',
  me: '（我）',
  claim: '领取',
  release: '释放',
  assign: '指派',
  claimed: '已领取该任务',
  released: '已释放该任务',
  assigned: (name: string) => `已指派给 ${name}`,
  assignTitle: '指派处理人',
  pick: '请选择处理人',
  noAssignees: '没有可指派的审核人员',
  heldByOther: (name: string) => `该任务已由「${name}」领取，只有处理人可以审核`,
});

type HeldTask = Pick<TaskRow, 'id' | 'version' | 'status' | 'assignee'>;

/** The signed-in user's id (0 while signed out). */
export function useMyId(): number {
  return useUserStore((state) => state.user?.id ?? 0);
}

/** Whether another reviewer holds the open task (only they may decide it). */
export const heldByOther = (task: HeldTask, myId: number): boolean =>
  task.status === 'open' && task.assignee !== null && task.assignee.id !== myId;

/** Puts the server's answer into the task's cached detail, then refreshes the queue and the detail. */
function useApplyRow() {
  const client = useQueryClient();
  return async (row?: TaskRow) => {
    if (row) {
      client.setQueryData<TaskDetail>(taskQuery(row.id).queryKey, (old) => (old ? { ...old, ...row } : old));
    }
    await invalidateResource(client, tasksResource);
  };
}

/** 领取 and 释放, with the id of the task being sent (`busy`). */
export function useHolderActions() {
  const { message } = useAppApis();
  const apply = useApplyRow();
  const [busy, setBusy] = useState<number | null>(null);

  const run = async (task: HeldTask, call: typeof claimTask, done: string) => {
    setBusy(task.id);
    let row: TaskRow | undefined;
    try {
      row = await call(task);
      void message.success(done);
    } catch (err) {
      const refusal = serverError(err);
      if (refusal && refusal.status !== 401) void message.error(refusal.message);
    } finally {
      setBusy(null);
      await apply(row);
    }
  };

  return {
    busy,
    claim: (task: HeldTask) => run(task, claimTask, HOLDER_TEXTS.claimed),
    release: (task: HeldTask) => run(task, releaseTask, HOLDER_TEXTS.released),
  };
}

/** 指派处理人: a reviewer who may decide `task` (open while `task` is set). */
export function AssignModal({
  task,
  onClose,
}: {
  task: Pick<TaskRow, 'id' | 'version' | 'title' | 'assignee'> | null;
  onClose: () => void;
}) {
  const { message } = useAppApis();
  const apply = useApplyRow();
  const [form] = Form.useForm<{ assigneeId?: number }>();
  const [saving, setSaving] = useState(false);
  const options = useQuery({ ...assigneesQuery(task?.id ?? 0), enabled: task !== null });

  useEffect(() => {
    if (task) form.setFieldsValue({ assigneeId: task.assignee?.id });
  }, [form, task]);

  const submit = async () => {
    if (!task) return;
    let assigneeId: number | undefined;
    try {
      ({ assigneeId } = await form.validateFields());
    } catch {
      return;
    }
    if (!assigneeId) return;
    setSaving(true);
    try {
      const row = await assignTask(task.id, { assigneeId, version: task.version });
      void message.success(HOLDER_TEXTS.assigned(row.assignee?.name ?? ''));
      await apply(row);
      onClose();
    } catch (err) {
      const refusal = serverError(err);
      if (!refusal || refusal.status === 401) return;
      if (refusal.status === 400) {
        // The dialog has the one field: a refusal about anything else shows there too.
        if (!applyServerErrors(form, err))
          form.setFields([{ name: 'assigneeId', errors: [refusal.message] }]);
      } else {
        // Moved meanwhile (409) or gone (404): say so and show the task as it is now.
        void message.error(refusal.message);
        await apply();
        onClose();
      }
    } finally {
      setSaving(false);
    }
  };

  const choices = (options.data ?? []).map((o) => ({ value: o.id, label: o.name }));
  return (
    <Modal
      open={task !== null}
      title={HOLDER_TEXTS.assignTitle}
      okText={HOLDER_TEXTS.assign}
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{task?.title}</Typography.Paragraph>
      <Form form={form} name="assign" layout="vertical">
        <Form.Item
          name="assigneeId"
          label={HOLDER_TEXTS.holder}
          rules={[{ required: true, message: HOLDER_TEXTS.pick }]}
          extra={options.isSuccess && choices.length === 0 ? HOLDER_TEXTS.noAssignees : undefined}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={HOLDER_TEXTS.pick}
            loading={options.isPending}
            options={choices}
          />
        </Form.Item>
      </Form>
      {options.isError ? (
        <Typography.Text type="danger">{serverError(options.error)?.message}</Typography.Text>
      ) : null}
    </Modal>
  );
}

/** 处理人 of the open task on an audit page, with 领取 / 释放 / 指派 as the caller may. */
export function TaskHolder({ task }: { task: TaskRow }) {
  const myId = useMyId();
  const canAssign = useCan(TASK_ASSIGN_PERMISSION);
  const { busy, claim, release } = useHolderActions();
  const [assigning, setAssigning] = useState(false);
  const open = task.status === 'open';
  const mine = task.assignee?.id === myId;

  return (
    <Space wrap data-testid="task-holder">
      <Typography.Text>{HOLDER_TEXTS.holder}：</Typography.Text>
      {task.assignee ? (
        <Tag color={mine ? 'blue' : 'default'}>
          {task.assignee.name}
          {mine ? HOLDER_TEXTS.me : ''}
        </Tag>
      ) : (
        <Typography.Text type="secondary">{HOLDER_TEXTS.unheld}</Typography.Text>
      )}
      {open && !task.assignee ? (
        <Button size="small" type="primary" loading={busy === task.id} onClick={() => void claim(task)}>
          {HOLDER_TEXTS.claim}
        </Button>
      ) : null}
      {open && task.assignee && (mine || canAssign) ? (
        <Button size="small" loading={busy === task.id} onClick={() => void release(task)}>
          {HOLDER_TEXTS.release}
        </Button>
      ) : null}
      {open && canAssign ? (
        <Button size="small" onClick={() => setAssigning(true)}>
          {HOLDER_TEXTS.assign}
        </Button>
      ) : null}
      <AssignModal task={assigning ? task : null} onClose={() => setAssigning(false)} />
    </Space>
  );
}
