// Image materials (影像资料) attached to business records.

import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { userRef } from './system.ts';

/**
 * Image materials (影像资料): uploaded scans attached to a business record (application, customer,
 * later policy). The bytes live behind the storage interface under a server-generated key; rows are
 * soft-deleted so the audit trail keeps pointing at something.
 */
export const materials = pgTable(
  'material',
  {
    id: id(),
    /** application | customer | policy */
    businessType: text('business_type').notNull(),
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    /** Code from the document-type dictionary. */
    docType: text('doc_type').notNull(),
    originalName: text('original_name').notNull(),
    storageKey: text('storage_key').notNull(),
    mime: text('mime').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: userRef('uploaded_by'),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('material_business').on(t.businessType, t.businessId, t.docType),
    uniqueIndex('material_storage_key').on(t.storageKey),
    check(
      'material_business_type',
      sql`${t.businessType} in ('application', 'customer', 'policy', 'service_order')`,
    ),
    check('material_mime', sql`${t.mime} in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')`),
    check('material_size', sql`${t.sizeBytes} > 0`),
  ],
);
