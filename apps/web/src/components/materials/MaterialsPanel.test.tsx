import { ROLE_CODES } from '@piibs/shared/auth';
import type { MaterialList, MaterialRow } from '@piibs/shared/material';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { dictAnswers, type MockAnswer, type MockApi, mockApi } from '@/test/mock-api.ts';
import { MaterialsPanel } from './MaterialsPanel.tsx';

const DOC_TYPES: [string, string][] = [
  ['BUSINESS_LICENSE', '营业执照'],
  ['APPLICATION_FORM', '投保单'],
];

const dictAnswer = dictAnswers({ document_type: DOC_TYPES });

function row(over: Partial<MaterialRow> = {}): MaterialRow {
  const id = over.id ?? 1;
  return {
    id,
    businessType: 'application',
    businessId: 42,
    docType: 'BUSINESS_LICENSE',
    docTypeName: '营业执照',
    originalName: '营业执照.png',
    mime: 'image/png',
    sizeBytes: 2048,
    sha256: 'a'.repeat(64),
    uploadedBy: 5,
    uploaderName: '企业用户',
    createdAt: '2026-03-01T08:00:00.000Z',
    fileUrl: `/api/materials/${id}/file`,
    thumbnailUrl: `/api/materials/${id}/thumbnail`,
    ...over,
  };
}

const listOf = (content: MaterialRow[], editable = true): MaterialList => ({
  businessNumber: 'AZX2026000042',
  content,
  totalElements: content.length,
  editable,
  readOnlyReason: editable ? null : '投保单当前状态为「待审核」，不能修改影像资料',
  editableDocTypes: [],
});

let api: MockApi;
const createObjectURL = vi.fn(() => 'blob:mock-material');
const revokeObjectURL = vi.fn();

beforeEach(() => {
  signInAs([ROLE_CODES.enterprise], ['application:list', 'application:edit']);
  Object.defineProperty(URL, 'createObjectURL', {
    value: createObjectURL,
    configurable: true,
    writable: true,
  });
  Object.defineProperty(URL, 'revokeObjectURL', {
    value: revokeObjectURL,
    configurable: true,
    writable: true,
  });
});
afterEach(() => {
  api?.restore();
  resetKitState();
});

const section = async (label: string) => screen.findByRole('region', { name: label });

describe('MaterialsPanel', { timeout: 30_000 }, () => {
  it('shows a section per document type with image thumbnails and PDF tiles; read-only hides upload and delete', async () => {
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'GET api/materials': {
        data: listOf(
          [
            row(),
            row({
              id: 2,
              docType: 'APPLICATION_FORM',
              docTypeName: '投保单',
              originalName: '投保单.pdf',
              mime: 'application/pdf',
              thumbnailUrl: null,
            }),
          ],
          false,
        ),
      },
      'GET api/materials/1/file': { data: new Blob(['png'], { type: 'image/png' }) },
    });
    renderWithProviders(<MaterialsPanel businessType="application" businessId={42} />);
    const licence = await section('营业执照');
    expect(await within(licence).findByRole('img', { name: '营业执照.png' })).toHaveAttribute(
      'src',
      'blob:mock-material',
    );
    const form = await section('投保单');
    expect(within(form).getByText('投保单.pdf')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: /预\s*览/ })).toBeInTheDocument();
    // The PDF is not fetched until asked for.
    expect(api.callsTo('GET api/materials/2/file')).toHaveLength(0);
    expect(api.callsTo('GET api/materials')[0]?.params).toEqual({
      businessType: 'application',
      businessId: 42,
    });
    // The server says the record is not editable: no upload, no delete, and why.
    expect(screen.getByText('投保单当前状态为「待审核」，不能修改影像资料')).toBeInTheDocument();
    expect(document.querySelector('input[type=file]')).toBeNull();
    expect(screen.queryByRole('button', { name: /删除/ })).toBeNull();
  });

  it('read-only shows only the kinds that hold files (no empty boxes), or 暂无资料', async () => {
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'GET api/materials': { data: listOf([row()], false) },
      'GET api/materials/1/file': { data: new Blob(['png'], { type: 'image/png' }) },
    });
    const view = renderWithProviders(
      <MaterialsPanel businessType="application" businessId={42} editable={false} />,
    );
    expect(await section('营业执照')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: '投保单' })).toBeNull();
    view.unmount();

    api.restore();
    api = mockApi({ 'GET api/dictDetail': dictAnswer, 'GET api/materials': { data: listOf([], false) } });
    renderWithProviders(<MaterialsPanel businessType="application" businessId={43} editable={false} />);
    expect(await screen.findByText('暂无资料')).toBeInTheDocument();
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('uploads to the section’s document type and shows the new file; a refusal shows the server’s message', async () => {
    let stored: MaterialRow[] = [];
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'GET api/materials': () => ({ data: listOf(stored) }),
      'GET api/materials/7/file': { data: new Blob(['png'], { type: 'image/png' }) },
      'POST api/materials': (config) => {
        const form = config.data as FormData;
        const file = form.get('file') as File;
        if (file.name === 'x.jpg')
          return { status: 400, data: { status: 400, message: '文件类型：仅支持 JPG、PNG、WEBP 或 PDF' } };
        const created = row({ id: 7, originalName: file.name, docType: String(form.get('docType')) });
        stored = [created];
        return { data: created };
      },
    });
    renderWithProviders(<MaterialsPanel businessType="application" businessId={42} />);
    const user = userEvent.setup();
    const licence = await section('营业执照');
    // rc-upload renders a fresh input after each pick.
    const input = () => licence.querySelector('input[type=file]') as HTMLInputElement;
    expect(input()).not.toBeNull();
    await user.upload(input(), new File(['png'], '执照.png', { type: 'image/png' }));

    expect(await within(licence).findByRole('img', { name: '执照.png' })).toBeInTheDocument();
    const sent = api.callsTo('POST api/materials')[0]!.data as FormData;
    expect(Object.fromEntries([...sent.entries()].filter(([k]) => k !== 'file'))).toEqual({
      businessType: 'application',
      businessId: '42',
      docType: 'BUSINESS_LICENSE',
    });

    await user.upload(input(), new File(['\x7fELF'], 'x.jpg', { type: 'image/jpeg' }));
    expect(await screen.findByText('x.jpg：文件类型：仅支持 JPG、PNG、WEBP 或 PDF')).toBeInTheDocument();
    expect(stored).toHaveLength(1);
  });

  it('shows the upload progress while the bytes go up, then the new file', async () => {
    let stored: MaterialRow[] = [];
    let finish: () => void = () => {};
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'GET api/materials': () => ({ data: listOf(stored) }),
      'GET api/materials/7/file': { data: new Blob(['png'], { type: 'image/png' }) },
      'POST api/materials': (config) => {
        // Half the bytes sent; the answer waits until the test lets it go.
        config.onUploadProgress?.({ loaded: 512, total: 1024 });
        return new Promise<MockAnswer>((resolve) => {
          finish = () => {
            stored = [row({ id: 7, originalName: '现场.png' })];
            resolve({ data: stored[0] });
          };
        });
      },
    });
    renderWithProviders(<MaterialsPanel businessType="application" businessId={42} />);
    const user = userEvent.setup();
    const licence = await section('营业执照');
    await user.upload(
      licence.querySelector('input[type=file]') as HTMLInputElement,
      new File(['png'], '现场.png', { type: 'image/png' }),
    );
    const bar = await within(licence).findByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    expect(within(licence).getByText('现场.png')).toBeInTheDocument();
    finish();
    expect(await within(licence).findByRole('img', { name: '现场.png' })).toBeInTheDocument();
    await waitFor(() => expect(within(licence).queryByRole('progressbar')).toBeNull());
  });

  it('under review with documents asked for: only those types take uploads, and the headings say why', async () => {
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'GET api/materials': {
        data: { ...listOf([row()], false), editableDocTypes: ['APPLICATION_FORM'] },
      },
      'GET api/materials/1/file': { data: new Blob(['png'], { type: 'image/png' }) },
    });
    renderWithProviders(
      <MaterialsPanel
        businessType="application"
        businessId={42}
        needs={{
          requiredMaterials: [{ docType: 'BUSINESS_LICENSE', stage: 'SUBMIT' }],
          requestedDocTypes: ['APPLICATION_FORM'],
        }}
      />,
    );
    const asked = await section('投保单');
    expect(within(asked).getByRole('heading')).toHaveTextContent('投保单（核保要求补充）');
    expect(within(asked).getByText('点击或将文件拖拽到此处上传')).toBeInTheDocument();
    const licence = await section('营业执照');
    expect(within(licence).getByRole('heading')).toHaveTextContent('营业执照（提交投保时必备）');
    expect(licence.querySelector('input[type=file]')).toBeNull();
    expect(within(licence).queryByRole('button', { name: /删除/ })).toBeNull();
    expect(
      screen.getByText('投保单当前状态为「待审核」，不能修改影像资料；核保要求补充的资料仍可上传'),
    ).toBeInTheDocument();
    // What was asked for comes first.
    expect(screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'))).toEqual([
      '投保单',
      '营业执照',
    ]);
  });

  it('uploads a file dropped on the drag area; a dropped file of another type is not sent', async () => {
    let stored: MaterialRow[] = [];
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'GET api/materials': () => ({ data: listOf(stored) }),
      'GET api/materials/8/file': { data: new Blob(['png'], { type: 'image/png' }) },
      'POST api/materials': (config) => {
        const form = config.data as FormData;
        const created = row({
          id: 8,
          originalName: (form.get('file') as File).name,
          docType: String(form.get('docType')),
          docTypeName: '投保单',
        });
        stored = [created];
        return { data: created };
      },
    });
    renderWithProviders(<MaterialsPanel businessType="application" businessId={42} />);
    const form = await section('投保单');
    const area = within(form).getByText('点击或将文件拖拽到此处上传');
    fireEvent.drop(area, {
      dataTransfer: {
        files: [new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' })],
        items: [],
      },
    });
    fireEvent.drop(area, {
      dataTransfer: { files: [new File(['png'], '投保单扫描.png', { type: 'image/png' })], items: [] },
    });
    expect(await within(form).findByRole('img', { name: '投保单扫描.png' })).toBeInTheDocument();
    const calls = api.callsTo('POST api/materials');
    expect(calls).toHaveLength(1);
    const sent = calls[0]!.data as FormData;
    expect((sent.get('file') as File).name).toBe('投保单扫描.png');
    expect(sent.get('docType')).toBe('APPLICATION_FORM');
  });

  it('a thumbnail opens the zoomable preview of the image', async () => {
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'GET api/materials': { data: listOf([row()], false) },
      'GET api/materials/1/file': { data: new Blob(['png'], { type: 'image/png' }) },
    });
    renderWithProviders(<MaterialsPanel businessType="application" businessId={42} />);
    const user = userEvent.setup();
    const licence = await section('营业执照');
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(await within(licence).findByRole('img', { name: '营业执照.png' }));
    // The group's preview dialog (it carries no name of its own) shows the full image.
    const preview = await screen.findByRole('dialog');
    const image = preview.querySelector('img.ant-image-preview-img') as HTMLImageElement;
    expect(image).toHaveAttribute('src', 'blob:mock-material');
    const scale = () => /scale3d\(([\d.]+)/.exec(image.getAttribute('style') ?? '')?.[1];
    expect(scale()).toBe('1');
    await user.click(within(preview).getByRole('button', { name: 'zoomIn' }));
    await waitFor(() => expect(Number(scale())).toBeGreaterThan(1));
  });

  it('deletes after a confirmation and reloads the list', async () => {
    let stored = [row()];
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'GET api/materials': () => ({ data: listOf(stored) }),
      'GET api/materials/1/file': { data: new Blob(['png'], { type: 'image/png' }) },
      'DELETE api/materials/1': () => {
        stored = [];
        return { data: { ok: true } };
      },
    });
    renderWithProviders(<MaterialsPanel businessType="application" businessId={42} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '删除 营业执照.png' }));
    await user.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.callsTo('DELETE api/materials/1')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('营业执照.png')).toBeNull());
  });

  it('a record the caller may not see shows the server’s message', async () => {
    api = mockApi({
      'GET api/dictDetail': dictAnswer,
      'GET api/materials': { status: 404, data: { status: 404, message: '投保单不存在' } },
    });
    renderWithProviders(<MaterialsPanel businessType="application" businessId={42} />);
    expect(await screen.findByText('投保单不存在')).toBeInTheDocument();
  });
});
