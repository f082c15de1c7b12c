// 机构账号: the sign-in accounts acting for a service organisation (an account sees the organisation's orders,
// persons and plans only once linked here). Lists the linked accounts; `editable` (insurer staff with
// service_org:edit, on the edit page) adds a picker of the service-role accounts not linked to another
// organisation, searched by username or nickname on the server, and 保存机构账号, which replaces the list. A
// refusal — an account already linked to another organisation (409) — is shown in the card.
import type { OrgMemberRow } from '@piibs/shared/risk-control';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Select, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { errorMessage } from '@/components/crud/resource.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { memberCandidatesQuery, orgMembersQuery, orgsResource, setOrgMembers } from '../api.ts';

export const MEMBER_TEXTS = Object.freeze({
  title: '机构账号',
  hint: '服务机构的人员须用关联到本机构的账号登录，才能看到本机构的服务单与人员。只能选择“风控服务机构”角色、且未关联其他机构的账号。',
  none: '尚未关联账号：该机构的人员登录后看不到任何服务单',
  picker: '选择账号',
  placeholder: '输入用户名或昵称搜索',
  save: '保存机构账号',
  saved: '机构账号已保存',
  disabledAccount: '已停用',
  noMatch: '没有可关联的账号',
  /** In the organisations' list: no account linked yet. */
  unlinked: '未关联',
});
const M = MEMBER_TEXTS;

/** How long typing pauses before the picker asks the server. */
const SEARCH_DELAY_MS = 300;

const accountLabel = (m: OrgMemberRow) =>
  `${m.nickName}（${m.username}）${m.enabled ? '' : `［${M.disabledAccount}］`}`;

export function OrgMembersCard({ orgId, editable }: { orgId: number; editable: boolean }) {
  const client = useQueryClient();
  const { message } = useAppApis();
  const members = useQuery(orgMembersQuery(orgId));
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  const [selected, setSelected] = useState<number[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const candidates = useQuery({ ...memberCandidatesQuery(orgId, keyword), enabled: editable });

  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const current = members.data ?? [];
  const value = selected ?? current.map((m) => m.userId);
  // The picked accounts keep their labels when a search no longer lists them.
  const [known, setKnown] = useState<Map<number, OrgMemberRow>>(new Map());
  useEffect(() => {
    setKnown((before) => {
      const next = new Map(before);
      for (const m of [...(members.data ?? []), ...(candidates.data ?? [])]) next.set(m.userId, m);
      return next;
    });
  }, [members.data, candidates.data]);
  const options = useMemo(() => {
    const shown = new Map<number, OrgMemberRow>();
    for (const id of value) {
      const m = known.get(id);
      if (m) shown.set(id, m);
    }
    for (const m of candidates.data ?? []) shown.set(m.userId, m);
    return [...shown.values()].map((m) => ({ value: m.userId, label: accountLabel(m) }));
  }, [value, known, candidates.data]);
  const changed =
    selected !== null &&
    (selected.length !== current.length || selected.some((id) => !current.some((m) => m.userId === id)));

  const save = async () => {
    setError(null);
    setSaving(true);
    try {
      const saved = await setOrgMembers(orgId, value);
      client.setQueryData(orgMembersQuery(orgId).queryKey, saved);
      setSelected(null);
      // Counts on the organisation and the candidates of every organisation change.
      await client.invalidateQueries({ queryKey: orgsResource.key, refetchType: 'none' });
      void message.success(M.saved);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card variant="borderless" title={M.title} style={{ marginTop: 16 }}>
      <Typography.Paragraph type="secondary">{M.hint}</Typography.Paragraph>
      {error ? <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} /> : null}
      {members.isPending ? (
        <Spin />
      ) : members.isError ? (
        <Alert type="error" showIcon title={errorMessage(members.error)} />
      ) : current.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={M.none} />
      ) : (
        <ul aria-label={M.title} style={{ paddingLeft: 0, listStyle: 'none', margin: 0 }}>
          {current.map((m) => (
            <li key={m.userId} style={{ marginBottom: 4 }}>
              <Typography.Text strong>{m.nickName}</Typography.Text>{' '}
              <Typography.Text type="secondary">{m.username}</Typography.Text>{' '}
              {m.enabled ? null : <Tag>{M.disabledAccount}</Tag>}
            </li>
          ))}
        </ul>
      )}
      {editable ? (
        <Space orientation="vertical" style={{ width: '100%', marginTop: 16 }}>
          <Select<number[]>
            mode="multiple"
            aria-label={M.picker}
            placeholder={M.placeholder}
            style={{ width: '100%', maxWidth: 640 }}
            value={value}
            options={options}
            showSearch={{ filterOption: false, onSearch: setTyped }}
            // Picking before the linked accounts are known would drop them on save.
            disabled={!members.isSuccess}
            loading={candidates.isFetching}
            notFoundContent={candidates.isFetching ? <Spin size="small" /> : M.noMatch}
            onChange={(ids) => {
              setSelected(ids);
              setError(null);
            }}
          />
          <Button
            type="primary"
            loading={saving}
            disabled={!changed || !members.isSuccess}
            onClick={() => void save()}
          >
            {M.save}
          </Button>
        </Space>
      ) : null}
    </Card>
  );
}
