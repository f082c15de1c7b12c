import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Form, Input } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp } from '@/lib/http.ts';
import type { HttpUi } from '@/lib/http-ui.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { CrudModal } from './CrudModal.tsx';
import { postInline } from './resource.ts';
import { renderWithProviders, resetKitState, signInAs } from './test-utils.tsx';

type Thing = { id: number; name: string; version: number };

let api: MockApi;
let ui: { confirm: ReturnType<typeof vi.fn>; error: ReturnType<typeof vi.fn> };
const navigate = vi.fn();

beforeEach(() => {
  signInAs(['admin']);
  ui = { confirm: vi.fn(), error: vi.fn() };
  configureHttp({ ui: ui as unknown as HttpUi, navigate });
});
afterEach(() => {
  api?.restore();
  resetKitState();
  navigate.mockReset();
});

function ThingModal({
  record,
  reload,
  onSaved,
}: {
  record: Thing | null;
  reload?: (thing: Thing) => Promise<Thing | undefined>;
  onSaved?: () => void;
}) {
  return (
    <CrudModal<{ name: string }, Thing>
      open
      title={record ? '编辑事物' : '新增事物'}
      record={record}
      toValues={(thing) => ({ name: thing.name })}
      reload={reload}
      onClose={() => {}}
      onSaved={onSaved}
      onSubmit={(values, thing) =>
        thing
          ? postInline('api/things/update', { id: thing.id, version: thing.version, ...values })
          : postInline('api/things', values)
      }
    >
      <Form.Item name="name" label="名称" rules={[{ required: true, message: '请输入名称' }]}>
        <Input />
      </Form.Item>
    </CrudModal>
  );
}

const bodies = (key: string) => api.callsTo(key).map((call) => JSON.parse(String(call.data)) as unknown);

describe('CrudModal', () => {
  it('a 409 on an edit shows the server message at the form, reloads the record and saves with its version', async () => {
    let stale = true;
    api = mockApi({
      'POST api/things/update': () =>
        stale
          ? { status: 409, data: { status: 409, message: '数据已被他人修改，请刷新后重试' } }
          : { data: { id: 1, name: '我的名称', version: 3 } },
    });
    const reload = vi.fn(async () => ({ id: 1, name: '别人改的名称', version: 2 }));
    const onSaved = vi.fn();
    renderWithProviders(
      <ThingModal record={{ id: 1, name: '旧名称', version: 1 }} reload={reload} onSaved={onSaved} />,
    );

    const input = await screen.findByLabelText('名称');
    fireEvent.change(input, { target: { value: '我的名称' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      '数据已被他人修改，请刷新后重试（已载入最新数据，请核对后重新提交）',
    );
    expect(reload).toHaveBeenCalledOnce();
    expect(screen.getByLabelText('名称')).toHaveValue('别人改的名称');
    // Shown at the form, not in a notification as well.
    expect(ui.error).not.toHaveBeenCalled();
    expect(onSaved).not.toHaveBeenCalled();

    stale = false;
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: '我的名称' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(bodies('POST api/things/update')).toEqual([
      { id: 1, version: 1, name: '我的名称' },
      { id: 1, version: 2, name: '我的名称' },
    ]);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
  });

  it('a refusal naming a field lands under that field; one that does not, above the form', async () => {
    let answer: { status: number; data: object } = {
      status: 400,
      data: {
        status: 400,
        message: '名称：不能超过 30 个字符',
        errors: [{ field: 'name', message: '不能超过 30 个字符' }],
      },
    };
    api = mockApi({ 'POST api/things': () => answer });
    renderWithProviders(<ThingModal record={null} />);
    fireEvent.change(await screen.findByLabelText('名称'), { target: { value: 'x'.repeat(31) } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('不能超过 30 个字符')).toHaveClass('ant-form-item-explain-error');
    expect(screen.queryByRole('alert', { name: /名称/ })).toBeNull();

    answer = { status: 409, data: { status: 409, message: '名称已存在' } };
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: '甲' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('名称已存在');

    // A field the form does not show goes above the form too.
    answer = {
      status: 400,
      data: { status: 400, message: '版本号：不能为空', errors: [{ field: 'version', message: '不能为空' }] },
    };
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: '乙' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('版本号：不能为空');
    expect(ui.error).not.toHaveBeenCalled();
  });

  it('a 403 on a rule stays on the page with the message (not the 401 page)', async () => {
    api = mockApi({
      'POST api/things': {
        status: 403,
        data: { status: 403, message: '角色权限不足：你的角色级别为 3，不能创建级别为 1 的角色' },
      },
    });
    renderWithProviders(<ThingModal record={null} />);
    fireEvent.change(await screen.findByLabelText('名称'), { target: { value: '甲' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('角色权限不足');
    expect(navigate).not.toHaveBeenCalled();
  });
});
