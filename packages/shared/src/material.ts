// Image materials (影像资料): scans attached to a business record by document type. Shared by the web's
// materials panel and the server's /api/materials routes. Import it as `@piibs/shared/material`.
import { z } from 'zod';
import type { FieldProblem } from './problem.ts';
import { MATERIAL_STAGE_LABELS, type MaterialStage, type RequiredMaterial } from './product.ts';

/**
 * The records materials attach to (the table also admits 'policy', for the policy issue): 'service_order' holds
 * the photos of an on-site risk-control service (防灾防损服务单).
 */
export const MATERIAL_BUSINESS_TYPES = ['application', 'customer', 'service_order'] as const;
export type MaterialBusinessType = (typeof MATERIAL_BUSINESS_TYPES)[number];
export const MATERIAL_BUSINESS_LABELS: Readonly<Record<MaterialBusinessType, string>> = Object.freeze({
  application: '投保单',
  customer: '投保人',
  service_order: '服务单',
});
export const isMaterialBusinessType = (v: unknown): v is MaterialBusinessType =>
  typeof v === 'string' && (MATERIAL_BUSINESS_TYPES as readonly string[]).includes(v);

/** The dictionary of document types (影像资料类型). */
export const MATERIAL_DOC_DICT = 'document_type';
/** The document type of a customer's licence scan. */
export const LICENCE_DOC_TYPE = 'BUSINESS_LICENSE';
/** The document types a customer's page offers (licences and the like); any type stays allowed. */
export const CUSTOMER_DOC_TYPES: readonly string[] = Object.freeze([
  LICENCE_DOC_TYPE,
  'SAFETY_PERMIT',
  'LEGAL_REP_ID',
  'AUTHORIZATION',
  'OTHER',
]);

/** The accepted content types, decided by the file's first bytes, never by its name or declared type. */
export const MATERIAL_MIMES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export type MaterialMime = (typeof MATERIAL_MIMES)[number];
export const MATERIAL_EXTENSIONS: Readonly<Record<MaterialMime, string>> = Object.freeze({
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
});
/** For a file picker's `accept`. */
export const MATERIAL_ACCEPT = '.jpg,.jpeg,.png,.webp,.pdf,image/jpeg,image/png,image/webp,application/pdf';

/** 10 MB per file. */
export const MAX_MATERIAL_BYTES = 10 * 1024 * 1024;

export const MATERIAL_MESSAGES = Object.freeze({
  type: '文件类型：仅支持 JPG、PNG、WEBP 或 PDF',
  tooLarge: '文件大小：不能超过 10MB',
  empty: '文件：不能为空',
  missing: '文件：请选择要上传的文件',
});

// ---- what an application must carry ----

/**
 * What an application's documents are checked against: its product's required materials (`requiredMaterials`)
 * and the types the underwriter asked for when returning it or while reviewing it (`requestedDocTypes`).
 */
export interface MaterialNeeds {
  requiredMaterials: readonly RequiredMaterial[];
  requestedDocTypes: readonly string[];
}

/**
 * The document types an application must carry to pass `stage`, each once: to be submitted (SUBMIT) the
 * product's SUBMIT-stage types; to be approved (APPROVE) those and its APPROVE-stage types; at both, whatever the
 * underwriter asked for.
 */
export function neededDocTypes(needs: MaterialNeeds, stage: MaterialStage): string[] {
  const types = needs.requiredMaterials
    .filter((m) => m.stage === 'SUBMIT' || stage === 'APPROVE')
    .map((m) => m.docType);
  return [...new Set([...types, ...needs.requestedDocTypes])];
}

/**
 * The needed types (neededDocTypes) not on file, in the same order. `present`: the types of the application's
 * live materials and of its applicant's (a licence scan already on the customer counts).
 */
export function missingDocTypes(
  needs: MaterialNeeds,
  stage: MaterialStage,
  present: Iterable<string>,
): string[] {
  const have = new Set(present);
  return neededDocTypes(needs, stage).filter((t) => !have.has(t));
}

/** The field a refusal for missing documents is reported at. */
export const MATERIALS_FIELD = 'materials';

/** The refusal naming what is missing (the types' labels): 影像资料：请上传 营业执照、被保险人清单. */
export function materialsProblem(missingLabels: readonly string[]): FieldProblem | null {
  if (missingLabels.length === 0) return null;
  return { field: MATERIALS_FIELD, label: '影像资料', message: `请上传 ${missingLabels.join('、')}` };
}

/**
 * Why a document type matters to the application, for its heading (营业执照（核保要求补充）), or null: asked for
 * by the underwriter, else required by the product at submission or before approval.
 */
export function docTypeNeedNote(needs: MaterialNeeds, docType: string): string | null {
  if (needs.requestedDocTypes.includes(docType)) return '核保要求补充';
  const stages = needs.requiredMaterials.filter((m) => m.docType === docType).map((m) => m.stage);
  const stage = stages.includes('SUBMIT') ? 'SUBMIT' : stages[0];
  return stage ? `${MATERIAL_STAGE_LABELS[stage]}必备` : null;
}

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) =>
  bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);

/** The content type by magic bytes (JPEG FFD8FF, PNG 89504E47…, WEBP RIFF????WEBP, PDF %PDF-), or null. */
export function sniffMaterialMime(bytes: Uint8Array): MaterialMime | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  return null;
}

export const isImageMime = (mime: string) => mime.startsWith('image/');

/** A file's size for people: 512 B, 12.5 KB, 3.2 MB. */
export function fileSizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A client file name made safe to keep and show: no path, no control characters, at most 200 characters. */
export function cleanFileName(name: string | undefined | null): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || '未命名文件').slice(0, 200);
}

const businessType = z
  .enum(MATERIAL_BUSINESS_TYPES, { error: '请选择正确的业务类型' })
  .meta({ title: '业务类型' });
const businessId = z.coerce
  .number({ error: '请输入正确的业务ID' })
  .int({ error: '请输入正确的业务ID' })
  .positive({ error: '请输入正确的业务ID' })
  .meta({ title: '业务ID' });

/** GET /api/materials query. */
export const materialListQuery = z.object({ businessType, businessId });
export type MaterialListQuery = z.infer<typeof materialListQuery>;

/** The text fields of the multipart upload (POST /api/materials; the file part is named `file`). */
export const materialUploadFields = z.object({
  businessType,
  businessId,
  docType: z
    .string({ error: '请选择资料类型' })
    .trim()
    .min(1, { error: '请选择资料类型' })
    .max(64, { error: '不能超过 64 个字符' })
    .meta({ title: '资料类型' }),
});
export type MaterialUploadFields = z.infer<typeof materialUploadFields>;

export const materialRow = z.object({
  id: z.number(),
  businessType: z.enum(MATERIAL_BUSINESS_TYPES),
  businessId: z.number(),
  docType: z.string(),
  /** The document type's label from the dictionary (null when the entry is gone). */
  docTypeName: z.string().nullable(),
  originalName: z.string(),
  mime: z.enum(MATERIAL_MIMES),
  sizeBytes: z.number(),
  sha256: z.string(),
  uploadedBy: z.number().nullable(),
  uploaderName: z.string().nullable(),
  createdAt: z.string(),
  /** The file itself (bearer token needed). */
  fileUrl: z.string(),
  /** A preview image (for now the image itself; PDFs have none). */
  thumbnailUrl: z.string().nullable(),
});
export type MaterialRow = z.infer<typeof materialRow>;

/** GET /api/materials answer: the record's materials, oldest first, and whether the caller may change them. */
export const materialList = z.object({
  /** The record by its business number: the 投保单号, the customer's name, the 服务单号. */
  businessNumber: z.string(),
  content: z.array(materialRow),
  totalElements: z.number(),
  editable: z.boolean(),
  /** Why the caller may not change them (null when editable). */
  readOnlyReason: z.string().nullable(),
  /**
   * When not editable: the document types the caller may still add and delete (an application under review
   * whose underwriter asked for them); empty otherwise.
   */
  editableDocTypes: z.array(z.string()),
});
export type MaterialList = z.infer<typeof materialList>;
