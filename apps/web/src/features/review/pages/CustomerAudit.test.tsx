import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { applicationDetail } from '@/features/policy/test-data.ts';
import { usePermissionStore } from '@/stores/permission.ts';
import { dictAnswers, type MockApi, mockApi } from '@/test/mock-api.ts';
import { customerHistory, taskDetail, taskRow } from '../test-data.ts';
import CustomerAudit from './CustomerAudit.tsx';

const PATTERN = '/piibs/task/audit/:id/:audit';
let api: MockApi;

beforeEach(() => signInAs(['underwriter'], ['customer:review']));
afterEach(() => {
  api?.restore();
  resetKitState();
  usePermissionStore.getState().reset();
});

/** The foldable sections' titles, top to bottom. */
const sectionTitles = () =>
  screen
    .getAllByRole('button')
    .filter((b) => b.hasAttribute('aria-expanded'))
    .map((b) => b.textContent);
/** A section's fold button. */
const toggle = (name: string) => screen.getByRole('button', { name });

/** 通过 and 拒绝 ask first: answer the dialog with its own button. */
async function confirm(user: ReturnType<typeof userEvent.setup>, label: string) {
  const dialog = await screen.findByRole('dialog', { name: `确定${label}？` });
  await user.click(within(dialog).getByRole('button', { name: new RegExp(label.split('').join('\\s*')) }));
}
const decideBody = () => JSON.parse(String(api.callsTo('POST api/tasks/11/decide').at(-1)?.data));

describe('审核客户信息', { timeout: 40_000 }, () => {
  it('shows the customer, earlier decisions and changes; 退回 needs an opinion, then goes back to the list', async () => {
    api = mockApi({
      'GET api/tasks/11': { data: taskDetail() },
      'POST api/tasks/11/decide': { data: taskRow({ status: 'done', decision: 'return' }) },
    });
    const { router } = renderRoute(<CustomerAudit />, PATTERN, '/piibs/task/audit/11/true');
    expect(await screen.findByText('镇江示范机械有限公司')).toBeInTheDocument();
    expect(screen.getByText('138****5678')).toBeInTheDocument();
    expect(screen.getByText('营业执照照片不清晰')).toBeInTheDocument();
    expect(screen.getByText(/修改投保人/)).toBeInTheDocument();
    // The change in words, as the server wrote it: the region by its name, not its code.
    expect(screen.getByText('地区：京口区')).toBeInTheDocument();
    expect(screen.queryByText(/321102/)).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /退\s*回/ }));
    expect(await screen.findByText('退回或拒绝时必须填写审核意见')).toBeInTheDocument();
    expect(api.callsTo('POST api/tasks/11/decide')).toHaveLength(0);

    await user.type(screen.getByLabelText('审核意见'), '请补充营业执照');
    await user.click(screen.getByRole('button', { name: /退\s*回/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/task/list'));
    expect(decideBody()).toEqual({ decision: 'return', opinion: '请补充营业执照', version: 2 });
    expect(await screen.findByText('审核完成：退回')).toBeInTheDocument();
  });

  it('通过 needs no opinion; a 409 shows the server message and reloads the task', async () => {
    let loads = 0;
    api = mockApi({
      'GET api/tasks/11': () => {
        loads += 1;
        return { data: taskDetail(loads > 1 ? { status: 'done', decision: 'approve', version: 3 } : {}) };
      },
      'POST api/tasks/11/decide': { status: 409, data: { status: 409, message: '该任务已被他人处理' } },
    });
    renderRoute(<CustomerAudit />, PATTERN, '/piibs/task/audit/11/true');
    await screen.findByText('镇江示范机械有限公司');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /通\s*过/ }));
    await confirm(user, '通过');
    expect(await screen.findByText('该任务已被他人处理')).toBeInTheDocument();
    expect(decideBody()).toEqual({ decision: 'approve', opinion: null, version: 2 });
    await waitFor(() => expect(loads).toBe(2));
    // Decided meanwhile: no more decision buttons.
    await waitFor(() => expect(screen.queryByRole('button', { name: /拒\s*绝/ })).toBeNull());
  });

  it('shows who holds the task; 领取 makes it the caller’s, and the decision then carries the new version', async () => {
    let claimed = false;
    const mine = { assignee: { id: 1, name: '系统管理员' }, version: 3 };
    api = mockApi({
      'GET api/tasks/11': () => ({ data: taskDetail(claimed ? mine : {}) }),
      'POST api/tasks/11/claim': () => {
        claimed = true;
        return { data: taskRow(mine) };
      },
      'POST api/tasks/11/decide': { data: taskRow({ status: 'done', decision: 'approve' }) },
    });
    renderRoute(<CustomerAudit />, PATTERN, '/piibs/task/audit/11/true');
    const holder = await screen.findByTestId('task-holder');
    expect(within(holder).getByText('未领取')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(holder).getByRole('button', { name: /领\s*取/ }));
    expect(await screen.findByText('已领取该任务')).toBeInTheDocument();
    expect(JSON.parse(String(api.callsTo('POST api/tasks/11/claim')[0]?.data))).toEqual({ version: 2 });
    expect(await within(holder).findByText('系统管理员（我）')).toBeInTheDocument();
    expect(within(holder).queryByRole('button', { name: /领\s*取/ })).toBeNull();
    expect(within(holder).getByRole('button', { name: /释\s*放/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /通\s*过/ }));
    await confirm(user, '通过');
    await waitFor(() => expect(api.callsTo('POST api/tasks/11/decide')).toHaveLength(1));
    expect(decideBody()).toEqual({ decision: 'approve', opinion: null, version: 3 });
  });

  it('a task another reviewer holds: their name, no 领取 and no decision buttons', async () => {
    api = mockApi({
      'GET api/tasks/11': { data: taskDetail({ assignee: { id: 8, name: '核保员乙' }, version: 3 }) },
    });
    renderRoute(<CustomerAudit />, PATTERN, '/piibs/task/audit/11/true');
    const holder = await screen.findByTestId('task-holder');
    expect(within(holder).getByText('核保员乙')).toBeInTheDocument();
    expect(screen.getByText('该任务已由「核保员乙」领取，只有处理人可以审核')).toBeInTheDocument();
    for (const name of [/领\s*取/, /释\s*放/, /指\s*派/, /通\s*过/, /退\s*回/, /拒\s*绝/])
      expect(screen.queryByRole('button', { name })).toBeNull();
  });

  it('a lead (task:assign) may release or reassign a task someone else holds', async () => {
    signInAs(['underwriter'], ['customer:review', 'task:assign']);
    let released = false;
    api = mockApi({
      'GET api/tasks/11': () => ({
        data: taskDetail(
          released ? { assignee: null, version: 4 } : { assignee: { id: 8, name: '核保员乙' }, version: 3 },
        ),
      }),
      'POST api/tasks/11/release': () => {
        released = true;
        return { data: taskRow({ assignee: null, version: 4 }) };
      },
    });
    renderRoute(<CustomerAudit />, PATTERN, '/piibs/task/audit/11/true');
    const holder = await screen.findByTestId('task-holder');
    expect(within(holder).getByRole('button', { name: /指\s*派/ })).toBeInTheDocument();
    await userEvent.setup().click(within(holder).getByRole('button', { name: /释\s*放/ }));
    expect(await screen.findByText('已释放该任务')).toBeInTheDocument();
    expect(JSON.parse(String(api.callsTo('POST api/tasks/11/release')[0]?.data))).toEqual({ version: 3 });
    expect(await within(holder).findByText('未领取')).toBeInTheDocument();
  });

  it('an application task shows the application’s image materials inline, read-only', async () => {
    signInAs(['underwriter'], ['application:review']);
    api = mockApi({
      'GET api/tasks/11': {
        data: taskDetail({
          kind: 'application',
          subjectId: 12,
          title: 'AZX2026000012 镇江示范机械有限公司',
          application: applicationDetail({ status: 'PENDING_REVIEW', statusLabel: '待审核' }),
          events: [],
        }),
      },
      'GET api/dictDetail': {
        data: {
          content: [
            {
              id: 1,
              dictId: 9,
              dictName: 'document_type',
              value: 'BUSINESS_LICENSE',
              label: '营业执照',
              sort: 0,
            },
          ],
          totalElements: 1,
        },
      },
      // The server would let the applicant change them; the review page never does.
      'GET api/materials': {
        data: {
          content: [
            {
              id: 5,
              businessType: 'application',
              businessId: 12,
              docType: 'BUSINESS_LICENSE',
              docTypeName: '营业执照',
              originalName: '营业执照正本.pdf',
              mime: 'application/pdf',
              sizeBytes: 2048,
              sha256: 'a'.repeat(64),
              uploadedBy: 5,
              uploaderName: '企业用户',
              createdAt: '2026-11-20T08:00:00.000Z',
              fileUrl: '/api/materials/5/file',
              thumbnailUrl: '/api/materials/5/thumbnail',
            },
          ],
          totalElements: 1,
          editable: true,
          readOnlyReason: null,
          editableDocTypes: [],
        },
      },
    });
    renderRoute(<CustomerAudit />, PATTERN, '/piibs/task/audit/11/true');
    expect(await screen.findByText('营业执照正本.pdf')).toBeInTheDocument();
    expect(api.callsTo('GET api/materials')[0]?.params).toEqual({
      businessType: 'application',
      businessId: 12,
    });
    expect(screen.getByRole('region', { name: '营业执照' })).toBeInTheDocument();
    expect(screen.queryByText('点击或将文件拖拽到此处上传')).toBeNull();
    expect(screen.queryByRole('button', { name: /删除/ })).toBeNull();
  });

  it('an application reads in the underwriter’s order, each section folds; a resubmission shows 字段：旧值 → 新值', async () => {
    signInAs(['underwriter'], ['application:review']);
    // The reviewer may open policies but not this channel's application view.
    usePermissionStore.getState().setMenus([
      {
        path: '/piibs/projectManage',
        component: 'Layout',
        meta: { title: '项目管理' },
        children: [
          {
            path: 'policyInsuranceView/:id',
            component: 'projectManage/PolicyInsuranceView',
            meta: { title: '保单详情' },
          },
        ],
      },
    ]);
    api = mockApi({
      'GET api/tasks/11': {
        data: taskDetail({
          kind: 'application',
          subjectId: 12,
          title: 'AZX2026000012 镇江示范机械有限公司',
          application: applicationDetail({ status: 'PENDING_REVIEW', statusLabel: '待审核' }),
          events: [],
          resubmitted: {
            before: { headcount: 120, premiumFen: 2_676_000 },
            after: { headcount: 118, premiumFen: 2_600_000 },
          },
        }),
      },
      'GET api/customers/7/history': { data: customerHistory() },
      'GET api/materials': { data: { content: [], totalElements: 0, editable: false, readOnlyReason: null } },
      'GET api/dictDetail': { data: { content: [], totalElements: 0 } },
    });
    renderRoute(<CustomerAudit />, PATTERN, '/piibs/task/audit/11/true');

    const changes = await screen.findByTestId('resubmitted-changes');
    expect(
      within(changes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['参保人数：120 → 118', '保费：¥26,760.00 → ¥26,000.00']);
    expect(sectionTitles()).toEqual([
      '重新提交的修改',
      '保费信息',
      '投保人：镇江示范机械有限公司',
      '客户历史',
      '影像资料',
      '投保单历史',
      '历次审核',
      '变更记录',
    ]);

    // 客户历史: the application under review left out; newest first; money formatted, states in words.
    const history = screen.getByRole('region', { name: '客户历史' });
    expect(await within(history).findByText('历史保单（共 1 份）')).toBeInTheDocument();
    expect(api.callsTo('GET api/customers/7/history')[0]?.params).toEqual({ exclude: 12 });
    const policy = within(history).getByRole('row', { name: /PAZX202600000031/ });
    expect(within(policy).getByRole('link', { name: 'PAZX202600000031' })).toHaveAttribute(
      'href',
      '/piibs/projectManage/policyInsuranceView/31',
    );
    expect(policy).toHaveTextContent('2026-03-10 至 2027-03-09');
    expect(policy).toHaveTextContent('¥26,760.00');
    expect(policy).toHaveTextContent('保障中');
    expect(within(history).getByText('历史投保单（共 25 份，显示最近 2 份）')).toBeInTheDocument();
    const rows = within(history)
      .getAllByRole('row')
      .filter((r) => /AZX20260000(10|08)/.test(r.textContent ?? ''));
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['AZX2026000010', '安全生产责任保险（工贸行业）', '2026-05-02', '已拒保'],
      ['AZX2026000008', '安全生产责任保险（工贸行业）', '2026-03-01', '已出单'],
    ]);
    // Not a page the reviewer may open: the number alone.
    expect(within(history).queryByRole('link', { name: 'AZX2026000010' })).toBeNull();

    // 变更记录 starts folded (its gist is above); its title opens it.
    expect(toggle('变更记录')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText(/修改投保人/)).not.toBeVisible();
    const user = userEvent.setup();
    await user.click(toggle('变更记录'));
    expect(toggle('变更记录')).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(/修改投保人/)).toBeVisible();

    // Folding from the keyboard: Enter, then Space, on the focused title.
    const premium = toggle('保费信息');
    expect(premium).toHaveAttribute('aria-expanded', 'true');
    premium.focus();
    await user.keyboard('{Enter}');
    expect(premium).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('region', { name: '保费信息' }).querySelector('[hidden]')).not.toBeNull();
    await user.keyboard(' ');
    expect(premium).toHaveAttribute('aria-expanded', 'true');
  });

  it('a customer task shows the customer’s history too, and its change history open', async () => {
    api = mockApi({
      'GET api/tasks/11': { data: taskDetail() },
      'GET api/customers/7/history': { data: customerHistory() },
    });
    renderRoute(<CustomerAudit />, PATTERN, '/piibs/task/audit/11/true');
    expect(await screen.findByText('历史保单（共 1 份）')).toBeInTheDocument();
    expect(api.callsTo('GET api/customers/7/history')[0]?.params).toBeUndefined();
    expect(sectionTitles()).toEqual(['客户历史', '历次审核', '变更记录']);
    expect(toggle('变更记录')).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(/修改投保人/)).toBeVisible();
  });

  describe('asking the applicant for documents', () => {
    const DOC_TYPES: [string, string][] = [
      ['BUSINESS_LICENSE', '营业执照'],
      ['INSURED_LIST', '被保险人清单'],
      ['SIGNED_APPLICATION', '签章投保单'],
    ];
    const licence = {
      id: 5,
      businessType: 'application' as const,
      businessId: 12,
      docType: 'BUSINESS_LICENSE',
      docTypeName: '营业执照',
      originalName: '营业执照正本.pdf',
      mime: 'application/pdf' as const,
      sizeBytes: 2048,
      sha256: 'a'.repeat(64),
      uploadedBy: 5,
      uploaderName: '企业用户',
      createdAt: '2026-11-20T08:00:00.000Z',
      fileUrl: '/api/materials/5/file',
      thumbnailUrl: null,
    };
    /** An application task whose application carries its licence and what has been asked for. */
    const applicationTask = (requestedDocTypes: string[]) =>
      taskDetail({
        kind: 'application',
        subjectId: 12,
        title: 'AZX2026000012 镇江示范机械有限公司',
        application: applicationDetail({
          status: 'PENDING_REVIEW',
          statusLabel: '待审核',
          requestedDocTypes,
        }),
        events: [],
      });
    const routes = (task: () => ReturnType<typeof taskDetail>) => ({
      'GET api/tasks/11': () => ({ data: task() }),
      'GET api/dictDetail': dictAnswers({ document_type: DOC_TYPES }),
      'GET api/materials': {
        data: {
          content: [licence],
          totalElements: 1,
          editable: false,
          readOnlyReason: null,
          editableDocTypes: [],
        },
      },
    });
    const pick = async (user: ReturnType<typeof userEvent.setup>, label: string) => {
      await user.click(screen.getByRole('combobox', { name: '要求补充的资料' }));
      await user.click(await screen.findByTitle(label));
    };

    beforeEach(() => signInAs(['underwriter'], ['application:review']));

    it('names what approval still lacks; 要求补充资料 asks for the chosen types and keeps the task open', async () => {
      let asked: string[] = [];
      api = mockApi({
        ...routes(() => applicationTask(asked)),
        'POST api/tasks/11/request-materials': (config) => {
          asked = JSON.parse(String(config.data)).docTypes;
          return { data: taskRow({ kind: 'application', subjectId: 12 }) };
        },
      });
      const { router } = renderRoute(<CustomerAudit />, PATTERN, '/piibs/task/audit/11/true');
      expect(await screen.findByText('核保通过前还缺：被保险人清单')).toBeInTheDocument();
      const user = userEvent.setup();
      await user.click(screen.getByRole('button', { name: '要求补充资料' }));
      expect(await screen.findByText('请选择要求补充的资料')).toBeInTheDocument();
      expect(api.callsTo('POST api/tasks/11/request-materials')).toHaveLength(0);

      await pick(user, '签章投保单');
      await user.type(screen.getByLabelText('审核意见'), '请补充加盖公章的投保单');
      await user.click(screen.getByRole('button', { name: '要求补充资料' }));
      expect(await screen.findByText('已要求补充资料，投保单保持待审核')).toBeInTheDocument();
      expect(JSON.parse(String(api.callsTo('POST api/tasks/11/request-materials')[0]?.data))).toEqual({
        docTypes: ['SIGNED_APPLICATION'],
        opinion: '请补充加盖公章的投保单',
        version: 2,
      });
      // Reloaded, still here: what was asked for is now needed for approval too.
      expect(await screen.findByText('核保通过前还缺：被保险人清单、签章投保单')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/piibs/task/audit/11/true');
      expect(screen.getByRole('button', { name: /通\s*过/ })).toBeInTheDocument();
    });

    it('退回 carries the chosen types with the opinion', async () => {
      api = mockApi({
        ...routes(() => applicationTask([])),
        'POST api/tasks/11/decide': { data: taskRow({ status: 'done', decision: 'return' }) },
      });
      renderRoute(<CustomerAudit />, PATTERN, '/piibs/task/audit/11/true');
      await screen.findByText('核保通过前还缺：被保险人清单');
      const user = userEvent.setup();
      await pick(user, '被保险人清单');
      await user.type(screen.getByLabelText('审核意见'), '请补充被保险人清单');
      await user.click(screen.getByRole('button', { name: /退\s*回/ }));
      await waitFor(() => expect(api.callsTo('POST api/tasks/11/decide')).toHaveLength(1));
      expect(decideBody()).toEqual({
        decision: 'return',
        opinion: '请补充被保险人清单',
        docTypes: ['INSURED_LIST'],
        version: 2,
      });
    });

    it('a customer task offers no document request', async () => {
      signInAs(['underwriter'], ['customer:review']);
      api = mockApi({ 'GET api/tasks/11': { data: taskDetail() } });
      renderRoute(<CustomerAudit />, PATTERN, '/piibs/task/audit/11/true');
      await screen.findByText('镇江示范机械有限公司');
      expect(screen.queryByRole('combobox', { name: '要求补充的资料' })).toBeNull();
      expect(screen.queryByRole('button', { name: '要求补充资料' })).toBeNull();
    });
  });
});
