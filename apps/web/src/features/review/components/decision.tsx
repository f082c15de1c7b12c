// The underwriter's decision, shared by the audit pages: 通过 / 退回 / 拒绝 with an opinion (required for 退回 and
// 拒绝), sent with the task's version; a 409 (another reviewer was first, or the record moved) reloads. 通过 and
// 拒绝 cannot be undone: each asks first, stating what follows. On an application, the underwriter may ask for
// documents (the `document_type` dictionary): with 退回, or by 要求补充资料, which keeps it under review.
import { formatTime } from '@piibs/shared/constants';
import { MATERIAL_DOC_DICT } from '@piibs/shared/material';
import {
  OPINION_REQUIRED,
  REVIEW_DECISION_LABELS,
  type ReviewDecision,
  TASK_STATUS_LABELS,
} from '@piibs/shared/review';
import type { TaskRow } from '@piibs/shared/task';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, Form, type FormInstance, Input, Row, Space } from 'antd';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { DetailTable } from '@/components/crud/DetailTable.tsx';
import { invalidateResource, serverError } from '@/components/crud/resource.ts';
import { applyServerErrors } from '@/components/form/server-errors.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { DictSelect } from '@/lib/dict.tsx';
import { decideTask, requestTaskMaterials, TASK_LIST_PATH, tasksResource } from '../api.ts';
import { AuditSection } from './AuditSection.tsx';

export const OPINION_MESSAGE = '退回或拒绝时必须填写审核意见';
export const DOC_TYPES_MESSAGE = '请选择要求补充的资料';
const DECISIONS: readonly ReviewDecision[] = ['approve', 'return', 'reject'];

export interface DecisionValues {
  opinion?: string;
  /** Application tasks: the document types asked for (with 退回, or by 要求补充资料). */
  docTypes?: string[];
}

/** What each decision leads to: shown on its button and, for the two that cannot be undone, in its confirmation. */
export type DecisionHints = Readonly<Record<ReviewDecision, string>>;

/** The decisions that cannot be undone: each is confirmed first. */
const IRREVERSIBLE: readonly ReviewDecision[] = ['approve', 'reject'];

/** How a decision is sent: a review task's by default; a policy change's is its own call. */
export interface DecisionTarget {
  send: (form: {
    decision: ReviewDecision;
    opinion: string | null;
    version: number;
    docTypes?: string[];
  }) => Promise<unknown>;
  /** Where 返回 and a sent decision lead. */
  listPath: string;
}

/**
 * Sends a decision for `task`: checks the opinion, shows a refusal at the opinion or in `error`, and on success
 * says so, refreshes the queue (and `afterDecision`'s caches) and goes back to the list.
 */
export function useTaskDecision(opts: {
  task: Pick<TaskRow, 'id' | 'version'> | undefined;
  /** Reloads what the page shows after a 409. */
  reload: () => Promise<unknown>;
  /** More caches to refresh after a decision (or a request for documents). */
  afterDecision?: () => Promise<unknown>;
  /** What each decision leads to (the confirmation of 通过 and 拒绝 states it). */
  hints: DecisionHints;
  /** Not a review task (a policy change): how its decision is sent and where the page returns. */
  target?: DecisionTarget;
}) {
  const listPath = opts.target?.listPath ?? TASK_LIST_PATH;
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message, modal } = useAppApis();
  const [form] = Form.useForm<DecisionValues>();
  const [error, setError] = useState<string | null>(null);
  const [deciding, setDeciding] = useState<ReviewDecision | 'request' | null>(null);

  /** A refusal: at its field, else above the page (a 409 reloads what the page shows). */
  const refused = async (err: unknown) => {
    const refusal = serverError(err);
    if (!refusal || refusal.status === 401) return;
    if (!applyServerErrors(form, err)) {
      setError(refusal.message);
      if (refusal.status === 409) await opts.reload();
    }
  };

  const decide = async (decision: ReviewDecision) => {
    const { task } = opts;
    if (!task) return;
    setError(null);
    const opinion = (form.getFieldValue('opinion') as string | undefined)?.trim() ?? '';
    const docTypes = (form.getFieldValue('docTypes') as string[] | undefined) ?? [];
    if (OPINION_REQUIRED.includes(decision) && !opinion) {
      form.setFields([{ name: 'opinion', errors: [OPINION_MESSAGE] }]);
      return;
    }
    form.setFields([{ name: 'opinion', errors: [] }]);
    if (IRREVERSIBLE.includes(decision)) {
      const label = REVIEW_DECISION_LABELS[decision];
      const confirmed = await modal.confirm({
        title: `确定${label}？`,
        content: `${opts.hints[decision]}。此操作不能撤回。`,
        okText: label,
        okButtonProps: { danger: decision === 'reject' },
        cancelText: '取消',
      });
      if (!confirmed) return;
    }
    setDeciding(decision);
    try {
      const form = {
        decision,
        opinion: opinion || null,
        // Only a return carries what it asks for.
        ...(decision === 'return' && docTypes.length ? { docTypes } : {}),
        version: task.version,
      };
      await (opts.target ? opts.target.send(form) : decideTask(task.id, form));
      void message.success(`审核完成：${REVIEW_DECISION_LABELS[decision]}`);
      await Promise.all([invalidateResource(client, tasksResource), opts.afterDecision?.()]);
      navigate(listPath);
    } catch (err) {
      await refused(err);
    } finally {
      setDeciding(null);
    }
  };

  /** 要求补充资料: the chosen types, with the opinion if any; the application stays under review. */
  const requestMaterials = async () => {
    const { task } = opts;
    if (!task) return;
    setError(null);
    const docTypes = (form.getFieldValue('docTypes') as string[] | undefined) ?? [];
    if (docTypes.length === 0) {
      form.setFields([{ name: 'docTypes', errors: [DOC_TYPES_MESSAGE] }]);
      return;
    }
    form.setFields([{ name: 'docTypes', errors: [] }]);
    const opinion = (form.getFieldValue('opinion') as string | undefined)?.trim() ?? '';
    setDeciding('request');
    try {
      await requestTaskMaterials(task.id, { docTypes, opinion: opinion || null, version: task.version });
      void message.success('已要求补充资料，投保单保持待审核');
      form.setFieldsValue({ docTypes: [], opinion: '' });
      await Promise.all([opts.reload(), opts.afterDecision?.()]);
    } catch (err) {
      await refused(err);
    } finally {
      setDeciding(null);
    }
  };

  return { form, error, deciding, decide, requestMaterials, hints: opts.hints, listPath };
}

/**
 * 审核: the opinion and the three decisions (their hints explain each on hover); with `materials` (an
 * application) the documents to ask for and 要求补充资料.
 */
export function DecisionCard({
  decision,
  materials = false,
}: {
  decision: ReturnType<typeof useTaskDecision>;
  materials?: boolean;
}) {
  const navigate = useNavigate();
  const { form, deciding, decide, requestMaterials, hints, listPath } = decision;
  return (
    <Card variant="borderless" title="审核">
      <Form<DecisionValues> form={form as FormInstance<DecisionValues>} layout="vertical" name="decision">
        <Form.Item name="opinion" label="审核意见" extra="退回或拒绝时必填">
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
        {materials ? (
          <Form.Item
            name="docTypes"
            label="要求补充的资料"
            extra="退回时随审核意见一并要求；也可不退回，点「要求补充资料」，投保单保持待审核，投保人补传后再审核"
          >
            <DictSelect dict={MATERIAL_DOC_DICT} mode="multiple" placeholder="选择资料类型" />
          </Form.Item>
        ) : null}
        <Space wrap>
          {DECISIONS.map((d) => (
            <Button
              key={d}
              type={d === 'approve' ? 'primary' : 'default'}
              danger={d === 'reject'}
              title={hints[d]}
              loading={deciding === d}
              disabled={deciding !== null && deciding !== d}
              onClick={() => void decide(d)}
            >
              {REVIEW_DECISION_LABELS[d]}
            </Button>
          ))}
          {materials ? (
            <Button
              title="投保单保持待审核，投保人可上传所要求的资料"
              loading={deciding === 'request'}
              disabled={deciding !== null && deciding !== 'request'}
              onClick={() => void requestMaterials()}
            >
              要求补充资料
            </Button>
          ) : null}
          <Button onClick={() => navigate(listPath)}>返回</Button>
        </Space>
      </Form>
    </Card>
  );
}

/**
 * An audit page: what is reviewed, and beside it on a wide screen the decision, kept in view while the rest
 * scrolls (the underwriter never hunts for 通过 / 退回); on a phone the decision follows what it decides.
 */
export function AuditLayout({ decision, children }: { decision: ReactNode; children: ReactNode }) {
  // One tree whether or not a decision is shown: claiming a task adds the panel without remounting the page.
  return (
    <div style={{ padding: 16 }}>
      <Row gutter={[16, 16]} align="stretch">
        <Col xs={24} lg={decision ? 16 : 24}>
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            {children}
          </Space>
        </Col>
        {decision ? (
          <Col xs={24} lg={8}>
            <div style={{ position: 'sticky', top: 16 }} data-testid="decision-panel">
              {decision}
            </div>
          </Col>
        ) : null}
      </Row>
    </div>
  );
}

/** 历次审核: earlier decisions on the same record. */
export function TaskHistory({ rows }: { rows: TaskRow[] }) {
  return (
    <AuditSection title="历次审核">
      <DetailTable<TaskRow>
        noun="历次审核"
        size="small"
        rowKey="id"
        scroll={{ x: 'max-content' }}
        dataSource={rows}
        locale={{ emptyText: '暂无历次审核' }}
        columns={[
          {
            key: 'createdAt',
            title: '提交时间',
            dataIndex: 'createdAt',
            render: (v: string) => formatTime(v),
          },
          {
            key: 'decision',
            title: '审核结论',
            dataIndex: 'decision',
            render: (v: ReviewDecision | null, row: TaskRow) =>
              v ? REVIEW_DECISION_LABELS[v] : TASK_STATUS_LABELS[row.status],
          },
          { key: 'opinion', title: '审核意见', dataIndex: 'opinion', render: (v: string | null) => v ?? '—' },
          {
            key: 'decidedBy',
            title: '审核人',
            render: (_: unknown, row: TaskRow) => row.decidedBy?.name ?? '—',
          },
          {
            key: 'decidedAt',
            title: '审核时间',
            dataIndex: 'decidedAt',
            render: (v: string | null) => (v ? formatTime(v) : '—'),
          },
        ]}
      />
    </AuditSection>
  );
}
