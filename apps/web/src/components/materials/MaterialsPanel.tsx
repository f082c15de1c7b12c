// The image materials (影像资料) of one business record, by document type (the `document_type` dictionary):
// a drag-and-drop upload with progress per type, a thumbnail grid (images open in a zoomable preview, PDFs
// open in a new tab or download), and delete with a confirmation while the record is editable. The server
// decides what is editable (the list answers `editable`, or the types still open: `editableDocTypes`, what an
// underwriter asked for while reviewing); the `editable` prop can only take it away (a read-only view). With
// `needs` (an application's required and requested types) those come first, their headings saying why
// (营业执照（核保要求补充）). Used by insured/ImageData, the application pages and the customer page.
import {
  DeleteOutlined,
  DownloadOutlined,
  EyeOutlined,
  FilePdfOutlined,
  InboxOutlined,
} from '@ant-design/icons';
import {
  docTypeNeedNote,
  fileSizeText,
  isImageMime,
  MATERIAL_ACCEPT,
  MATERIAL_DOC_DICT,
  MATERIAL_MESSAGES,
  MAX_MATERIAL_BYTES,
  type MaterialBusinessType,
  type MaterialNeeds,
  type MaterialRow,
  neededDocTypes,
} from '@piibs/shared/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Empty,
  Flex,
  Image,
  Popconfirm,
  Spin,
  Typography,
  Upload,
  type UploadFile,
  type UploadProps,
} from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { errorMessage, serverError } from '@/components/crud/resource.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { type DictOption, useDictState } from '@/lib/dict.tsx';
import { saveBlob } from '@/lib/download.ts';
import { deleteMaterial, materialBlobQuery, materialsKey, materialsQuery, uploadMaterial } from './api.ts';

export const MATERIAL_TEXTS = Object.freeze({
  dragHint: '点击或将文件拖拽到此处上传',
  typeHint: '支持 JPG、PNG、WEBP、PDF，单个文件不超过 10MB',
  none: '暂无资料',
  uploaded: (name: string) => `${name} 上传成功`,
  deleteTitle: (name: string) => `确定删除「${name}」吗？`,
  deleted: '已删除',
  delete: '删除',
  ok: '确定',
  cancel: '取消',
  preview: '预览',
  download: '下载',
  loadFailed: '加载失败',
  licences: '证照影像资料',
  noTypes: '影像资料类型字典为空，请先在字典管理中维护 document_type',
  stillOpen: '；核保要求补充的资料仍可上传',
});

export interface MaterialsPanelProps {
  businessType: MaterialBusinessType;
  businessId: number;
  /** false: read-only (no upload, no delete) whatever the server allows. */
  editable?: boolean;
  /** Only these document types get a section (materials of other types are still shown). */
  docTypes?: readonly string[];
  /** A heading above the sections. */
  title?: ReactNode;
  /** An application's required and requested types: shown first, each heading saying why it is needed. */
  needs?: MaterialNeeds;
}

const TILE = 120;

/** An object URL for a Blob, revoked when the Blob changes or the component goes. */
function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob || typeof URL.createObjectURL !== 'function') {
      setUrl(undefined);
      return;
    }
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}

function ImageThumb({ material }: { material: MaterialRow }) {
  const blob = useQuery(materialBlobQuery(material.fileUrl));
  const src = useObjectUrl(blob.data);
  if (blob.isError) return <Typography.Text type="danger">{MATERIAL_TEXTS.loadFailed}</Typography.Text>;
  if (!src) return <Spin size="small" />;
  return (
    <Image src={src} alt={material.originalName} width={TILE} height={TILE} style={{ objectFit: 'cover' }} />
  );
}

function PdfThumb({ material }: { material: MaterialRow }) {
  const client = useQueryClient();
  const { message } = useAppApis();
  const load = () => client.fetchQuery(materialBlobQuery(material.fileUrl));

  const open = async () => {
    // Opened while the click still counts as the user's, so no popup blocker stops it; filled when loaded.
    const win = window.open('', '_blank');
    try {
      const url = URL.createObjectURL(await load());
      if (win) win.location.href = url;
      else window.open(url, '_blank', 'noopener');
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (err) {
      win?.close();
      void message.error(errorMessage(err));
    }
  };
  const download = async () => {
    try {
      saveBlob(await load(), material.originalName);
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <Flex vertical align="center" gap={4}>
      <FilePdfOutlined style={{ fontSize: 40, color: '#cf1322' }} aria-label="PDF" />
      <Flex gap={4}>
        <Button size="small" type="link" icon={<EyeOutlined />} onClick={() => void open()}>
          {MATERIAL_TEXTS.preview}
        </Button>
        <Button
          size="small"
          type="link"
          icon={<DownloadOutlined />}
          onClick={() => void download()}
          aria-label={`${MATERIAL_TEXTS.download} ${material.originalName}`}
        />
      </Flex>
    </Flex>
  );
}

function MaterialTile({
  material,
  canChange,
  onDelete,
}: {
  material: MaterialRow;
  canChange: boolean;
  onDelete: (m: MaterialRow) => Promise<void>;
}) {
  const uploaded =
    `${material.uploaderName ?? ''} ${material.createdAt.slice(0, 16).replace('T', ' ')}`.trim();
  return (
    <div data-testid={`material-${material.id}`} style={{ width: TILE }}>
      <Flex
        align="center"
        justify="center"
        style={{
          width: TILE,
          height: TILE,
          border: '1px solid #f0f0f0',
          borderRadius: 6,
          overflow: 'hidden',
        }}
      >
        {isImageMime(material.mime) ? <ImageThumb material={material} /> : <PdfThumb material={material} />}
      </Flex>
      <Typography.Text
        ellipsis={{ tooltip: `${material.originalName}（${uploaded}）` }}
        style={{ width: TILE, display: 'block', fontSize: 12 }}
      >
        {material.originalName}
      </Typography.Text>
      <Flex justify="space-between" align="center">
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {fileSizeText(material.sizeBytes)}
        </Typography.Text>
        {canChange ? (
          <Popconfirm
            title={MATERIAL_TEXTS.deleteTitle(material.originalName)}
            okText={MATERIAL_TEXTS.ok}
            cancelText={MATERIAL_TEXTS.cancel}
            onConfirm={() => onDelete(material)}
          >
            <Button
              size="small"
              type="link"
              danger
              icon={<DeleteOutlined />}
              aria-label={`${MATERIAL_TEXTS.delete} ${material.originalName}`}
            />
          </Popconfirm>
        ) : null}
      </Flex>
    </div>
  );
}

function DocTypeSection({
  businessType,
  businessId,
  docType,
  materials,
  canChange,
  onDelete,
  note,
}: {
  businessType: MaterialBusinessType;
  businessId: number;
  docType: DictOption;
  materials: MaterialRow[];
  canChange: boolean;
  onDelete: (m: MaterialRow) => Promise<void>;
  /** Why the type is needed (核保要求补充, 提交投保时必备 …). */
  note: string | null;
}) {
  const client = useQueryClient();
  const { message } = useAppApis();
  const [uploads, setUploads] = useState<UploadFile[]>([]);

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (file.size > MAX_MATERIAL_BYTES) {
      void message.error(`${file.name}：${MATERIAL_MESSAGES.tooLarge}`);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = async ({ file, onProgress, onSuccess, onError }) => {
    const blob = file as File;
    try {
      const row = await uploadMaterial({
        businessType,
        businessId,
        docType: docType.value,
        file: blob,
        onProgress: (percent) => onProgress?.({ percent }),
      });
      await client.invalidateQueries({ queryKey: materialsKey(businessType, businessId) });
      onSuccess?.(row);
      void message.success(MATERIAL_TEXTS.uploaded(blob.name));
    } catch (err) {
      const text = errorMessage(err);
      onError?.(new Error(text), text);
      void message.error(`${blob.name}：${text}`);
      // A record that stopped being editable (409) or went away (404) shows as it is now.
      if (serverError(err))
        void client.invalidateQueries({ queryKey: materialsKey(businessType, businessId) });
    }
  };

  return (
    <section aria-label={docType.label} style={{ marginBottom: 24 }}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {docType.label}
        {note ? `（${note}）` : null}
        <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal', marginLeft: 8 }}>
          {materials.length}
        </Typography.Text>
      </Typography.Title>
      {canChange ? (
        <Upload.Dragger
          name="file"
          accept={MATERIAL_ACCEPT}
          multiple
          fileList={uploads}
          beforeUpload={beforeUpload}
          customRequest={customRequest}
          onChange={({ fileList }) => setUploads(fileList.filter((f) => f.status !== 'done'))}
          style={{ marginBottom: 12 }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{MATERIAL_TEXTS.dragHint}</p>
          <p className="ant-upload-hint">{MATERIAL_TEXTS.typeHint}</p>
        </Upload.Dragger>
      ) : null}
      {materials.length ? (
        <Image.PreviewGroup>
          <Flex wrap gap={12} style={{ marginTop: 12 }}>
            {materials.map((m) => (
              <MaterialTile key={m.id} material={m} canChange={canChange} onDelete={onDelete} />
            ))}
          </Flex>
        </Image.PreviewGroup>
      ) : canChange ? null : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={MATERIAL_TEXTS.none} />
      )}
    </section>
  );
}

export function MaterialsPanel({
  businessType,
  businessId,
  editable = true,
  docTypes,
  title,
  needs,
}: MaterialsPanelProps) {
  const client = useQueryClient();
  const { message } = useAppApis();
  const dict = useDictState(MATERIAL_DOC_DICT);
  const query = useQuery(materialsQuery(businessType, businessId));

  if (query.isPending || (dict.loading && dict.options.length === 0)) {
    return (
      <div style={{ padding: 24, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  if (query.isError) {
    // Not an antd Alert (role="alert"): the page around the panel keeps its own alert for its form.
    return (
      <Typography.Paragraph type="danger" data-testid="materials-error">
        {errorMessage(query.error)}
      </Typography.Paragraph>
    );
  }

  const list = query.data;
  const canChange = (docType: string) =>
    editable && (list.editable || list.editableDocTypes.includes(docType));
  const byType = new Map<string, MaterialRow[]>();
  for (const m of list.content) byType.set(m.docType, [...(byType.get(m.docType) ?? []), m]);
  const sections: DictOption[] = dict.options.filter((o) => !docTypes || docTypes.includes(o.value));
  for (const m of list.content) {
    if (!sections.some((s) => s.value === m.docType))
      sections.push({ value: m.docType, label: m.docTypeName ?? m.docType });
  }
  // What the application needs first, in the order it is needed (asked for, at submission, before approval).
  if (needs) {
    const order = [...needs.requestedDocTypes, ...neededDocTypes(needs, 'APPROVE')];
    const rank = (value: string) => (order.includes(value) ? order.indexOf(value) : order.length);
    sections.sort((a, b) => rank(a.value) - rank(b.value));
  }

  // Where nothing may be added, only the kinds that hold something: a reviewer does not scroll past empty boxes.
  const shown = sections.filter((s) => canChange(s.value) || byType.has(s.value));

  const onDelete = async (m: MaterialRow) => {
    try {
      await deleteMaterial(m.id);
      void message.success(MATERIAL_TEXTS.deleted);
    } catch (err) {
      void message.error(errorMessage(err));
    } finally {
      await client.invalidateQueries({ queryKey: materialsKey(businessType, businessId) });
    }
  };

  return (
    <div>
      {title ? (
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {title}
        </Typography.Title>
      ) : null}
      {editable && !list.editable && list.readOnlyReason ? (
        <Typography.Paragraph type="secondary">
          {list.readOnlyReason}
          {list.editableDocTypes.length ? MATERIAL_TEXTS.stillOpen : ''}
        </Typography.Paragraph>
      ) : null}
      {sections.length === 0 ? (
        <Typography.Paragraph type="warning">
          {dict.error ? errorMessage(dict.error) : MATERIAL_TEXTS.noTypes}
        </Typography.Paragraph>
      ) : null}
      {sections.length > 0 && shown.length === 0 ? (
        <Typography.Paragraph type="secondary">{MATERIAL_TEXTS.none}</Typography.Paragraph>
      ) : null}
      {shown.map((s) => (
        <DocTypeSection
          key={s.value}
          businessType={businessType}
          businessId={businessId}
          docType={s}
          materials={byType.get(s.value) ?? []}
          canChange={canChange(s.value)}
          onDelete={onDelete}
          note={needs ? docTypeNeedNote(needs, s.value) : null}
        />
      ))}
    </div>
  );
}
