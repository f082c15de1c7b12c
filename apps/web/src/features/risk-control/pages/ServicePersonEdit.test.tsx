import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { orgRow, page, personRow } from '../test-data.ts';
import Expert from './Expert.tsx';
import ServicePersonEdit from './ServicePersonEdit.tsx';

const PATTERN = '/piibs/riskControl/servicePerson/newUpdate/:id/:detail';
let api: MockApi;

beforeEach(() =>
  signInAs(
    ['service'],
    ['service_org:list', 'service_person:list', 'service_person:add', 'service_person:edit'],
  ),
);
afterEach(() => {
  api?.restore();
  resetKitState();
});

const body = (key: string) => JSON.parse(String(api.callsTo(key).at(-1)!.data));
const button = async (name: RegExp) => (await screen.findByText(name)).closest('button')!;

describe('服务人员', { timeout: 40_000 }, () => {
  it('lists organisations and experts with masked phones', async () => {
    api = mockApi({
      'GET api/service-orgs': page([orgRow()]),
      'GET api/service-persons': page([personRow()]),
    });
    renderRoute(<Expert />, '/piibs/riskControl/prevention/expert', '/piibs/riskControl/prevention/expert');
    expect(await screen.findByText('周建华 139****0001')).toBeInTheDocument();
    expect(await screen.findByText('139****0011')).toBeInTheDocument();
    expect(screen.getByText('ZA2024320018', { exact: false })).toBeInTheDocument();
    // An organisation's account may not add organisations.
    expect(screen.queryByText('新增服务机构')).toBeNull();
    expect(screen.getByText('新增服务人员')).toBeInTheDocument();
  });

  it('saves with the loaded version, keeps the masked phone, and shows a server 400 at its field', async () => {
    api = mockApi({
      'GET api/service-orgs': page([orgRow()]),
      'GET api/service-persons/8': { data: personRow() },
      'POST api/service-persons/update': {
        status: 400,
        data: {
          status: 400,
          message: '资格证书编号：该证书编号已登记',
          errors: [{ field: 'certificateNo', message: '该证书编号已登记' }],
        },
      },
    });
    renderRoute(<ServicePersonEdit />, PATTERN, '/piibs/riskControl/servicePerson/newUpdate/8/false');
    expect(await screen.findByDisplayValue('王振国')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(await button(/^保\s*存$/));
    expect(await screen.findByText('该证书编号已登记')).toHaveClass('ant-form-item-explain-error');
    expect(body('POST api/service-persons/update')).toMatchObject({
      id: 8,
      version: 1,
      orgId: 3,
      phone: '139****0011',
      certificateValidFrom: '2024-01-01',
      certificateValidTo: '2029-12-31',
    });
  });

  it('a 409 loads what the server holds now and says so', async () => {
    let version = 1;
    api = mockApi({
      'GET api/service-orgs': page([orgRow()]),
      'GET api/service-persons/8': () => ({
        data: personRow({ version, specialty: version > 1 ? '应急管理' : '机械安全与隐患排查' }),
      }),
      'POST api/service-persons/update': () => {
        version = 2;
        return { status: 409, data: { status: 409, message: '数据已被他人修改' } };
      },
    });
    renderRoute(<ServicePersonEdit />, PATTERN, '/piibs/riskControl/servicePerson/newUpdate/8/false');
    await screen.findByDisplayValue('王振国');
    const user = userEvent.setup();
    await user.click(await button(/^保\s*存$/));
    expect(await screen.findByText(/数据已被他人修改（已载入最新数据/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByDisplayValue('应急管理')).toBeInTheDocument());
  });

  it('is read-only with detail true', async () => {
    api = mockApi({
      'GET api/service-orgs': page([orgRow()]),
      'GET api/service-persons/8': { data: personRow() },
    });
    renderRoute(<ServicePersonEdit />, PATTERN, '/piibs/riskControl/servicePerson/newUpdate/8/true');
    expect(await screen.findByDisplayValue('王振国')).toBeDisabled();
    expect(screen.queryByText(/^保\s*存$/)).toBeNull();
  });
});
