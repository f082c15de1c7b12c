// The one adapter from the shared zod schemas to antd form rules: a form checks a field with the very schema
// the server validates it with, and shows the schema's message.
import { yuanTextToFen } from '@piibs/shared/money';
import { fenField, YUAN_MALFORMED } from '@piibs/shared/money-field';
import { installPlainZodMessages } from '@piibs/shared/zod-messages';
import type { Rule } from 'antd/es/form';

installPlainZodMessages();

/** The part of a zod schema a rule needs (structural, so the web app needs no direct zod import). */
interface FieldSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: { message: string }[] } };
}

/** How a field typed as text becomes the value its schema checks ('1200.5' yuan → 120050 fen). */
interface Typed {
  read: (text: string) => number | null;
  /** Shown for text that `read` cannot read. */
  malformed: string;
}

/**
 * An antd rule from a shared zod field schema. Empty passes: that is `required`'s job. With `typed`, the
 * trimmed text is read first (unreadable text is refused with `typed.malformed`) and the schema checks the
 * value read.
 */
export function zodRule(schema: FieldSchema, typed?: Typed): Rule {
  return {
    validator: async (_rule: unknown, value: unknown): Promise<void> => {
      if (value === undefined || value === null || value === '') return;
      let checked = value;
      if (typed) {
        const text = String(value).trim();
        if (text === '') return;
        const read = typed.read(text);
        if (read === null) throw new Error(typed.malformed);
        checked = read;
      }
      const result = schema.safeParse(checked);
      if (!result.success)
        throw new Error(result.error.issues[0]?.message ?? typed?.malformed ?? '格式不正确');
    },
  };
}

/** Yuan as typed → fen; a minus sign is kept, so the schema refuses the amount by its rule, not as unreadable. */
function readYuan(text: string): number | null {
  const negative = text.startsWith('-');
  const fen = yuanTextToFen(negative ? text.slice(1) : text);
  return fen === null ? null : negative ? -fen : fen;
}

/**
 * An amount typed in yuan, read to fen and checked by its shared schema (by default the server's: more than 0).
 * The field is never clamped: −5 or 0 stays as typed and is refused with the schema's message.
 */
export function yuanRule(schema: FieldSchema = fenField('')): Rule {
  return zodRule(schema, { read: readYuan, malformed: YUAN_MALFORMED });
}
