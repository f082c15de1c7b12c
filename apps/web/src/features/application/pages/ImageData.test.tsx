import { ROLE_CODES } from '@piibs/shared/auth';
import type { MaterialRow } from '@piibs/shared/material';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { dictAnswer } from '@/features/risk-control/test-data.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import ImageData from './ImageData.tsx';

const PATTERN = '/piibs/insured/ImageData/:id/:businessCode';
const BAD_ROUTE = '无法识别的业务类型或记录编号';
let api: MockApi;

const licence: MaterialRow = {
  id: 1,
  businessType: 'application',
  businessId: 42,
  docType: 'BUSINESS_LICENSE',
  docTypeName: '营业执照',
  originalName: '营业执照.pdf',
  mime: 'application/pdf',
  sizeBytes: 2048,
  sha256: 'a'.repeat(64),
  uploadedBy: 5,
  uploaderName: '企业用户',
  createdAt: '2026-03-01T08:00:00.000Z',
  fileUrl: '/api/materials/1/file',
  thumbnailUrl: null,
};

beforeEach(() => {
  signInAs([ROLE_CODES.enterprise], ['application:list', 'application:edit']);
  api = mockApi({
    'GET api/dictDetail': dictAnswer,
    'GET api/materials': {
      data: {
        businessNumber: 'AZX2026000042',
        content: [licence],
        totalElements: 1,
        editable: true,
        readOnlyReason: null,
        editableDocTypes: [],
      },
    },
  });
});
afterEach(() => {
  api?.restore();
  resetKitState();
});

describe('影像资料', { timeout: 30_000 }, () => {
  it.each([
    ['an unknown business code', '/piibs/insured/ImageData/42/policy'],
    ['an id that is not a number', '/piibs/insured/ImageData/abc/application'],
    ['a zero id', '/piibs/insured/ImageData/0/customer'],
    ['a negative id', '/piibs/insured/ImageData/-3/application'],
    ['a fractional id', '/piibs/insured/ImageData/1.5/application'],
  ])('%s shows that the route is not understood and asks nothing of the server', async (_, url) => {
    renderRoute(<ImageData />, PATTERN, url);
    expect(await screen.findByText(BAD_ROUTE)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /返\s*回/ })).toBeInTheDocument();
    expect(api.callsTo('GET api/materials')).toHaveLength(0);
  });

  it('a known business code and id render the record’s materials panel', async () => {
    renderRoute(<ImageData />, PATTERN, '/piibs/insured/ImageData/42/application');
    // The record by its 投保单号, never its id.
    expect(await screen.findByText('影像资料（投保单 AZX2026000042）')).toBeInTheDocument();
    expect(screen.queryByText(/投保单 42/)).toBeNull();
    const section = await screen.findByRole('region', { name: '营业执照' });
    expect(within(section).getByText('营业执照.pdf')).toBeInTheDocument();
    // Editable: the drag-and-drop upload is offered.
    expect(within(section).getByText('点击或将文件拖拽到此处上传')).toBeInTheDocument();
    expect(screen.queryByText(BAD_ROUTE)).toBeNull();
    expect(api.callsTo('GET api/materials')[0]?.params).toEqual({
      businessType: 'application',
      businessId: 42,
    });
  });
});
