// A server refusal placed on the form's own fields. A 400 names every refused field by its request path
// (`{ status, message, errors: [{ field: 'contacts.0.phone', message }] }`, docs/api.md "Errors"); the form
// shows each message under its field, and the caller shows `message` itself only when no field took one.
import type { FormInstance } from 'antd';
import type { NamePath } from 'antd/es/form/interface';
import { refusalOf } from '@/lib/http.ts';
import { ApiError } from '@/lib/request-inline.ts';

type Path = (string | number)[];

/**
 * The refused fields of a failed call through the shared client or requestInline (empty for a refusal about
 * no field, or a network failure).
 */
function fieldErrorsOf(error: unknown): { field: string; message: string }[] {
  const refusal = refusalOf(error);
  const errors = refusal
    ? (refusal.data as { errors?: unknown } | undefined)?.errors
    : error instanceof ApiError
      ? error.errors
      : undefined;
  if (!Array.isArray(errors)) return [];
  return errors.filter(
    (e): e is { field: string; message: string } =>
      typeof e?.field === 'string' && e.field !== '' && typeof e.message === 'string',
  );
}

/** 'contacts.0.phone' → ['contacts', 0, 'phone'] (antd's name of a Form.List item's field). */
export function namePathOf(field: string): Path {
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

const keyOf = (name: NamePath): string => (Array.isArray(name) ? name : [name]).map(String).join('.');

/**
 * The fields the form shows, by key: its registered names except containers (a Form.List, which registers
 * its own name and shows no message of its own), known by other names extending theirs.
 */
function shownFields(form: FormInstance): Map<string, NamePath> {
  const names = form.getFieldsError().map((f) => f.name);
  const keys = names.map(keyOf);
  const shown = new Map<string, NamePath>();
  names.forEach((name, i) => {
    const key = keys[i]!;
    if (!keys.some((other) => other.startsWith(`${key}.`))) shown.set(key, name);
  });
  return shown;
}

/**
 * The form's field for a path: the path itself, else its nearest ancestor the form shows (an entry of a list
 * edited as one field, 'scheduledDates.2' → the date picker 'scheduledDates').
 */
function shownAt(shown: ReadonlyMap<string, NamePath>, path: Path): NamePath | undefined {
  for (let n = path.length; n > 0; n--) {
    const name = shown.get(keyOf(path.slice(0, n)));
    if (name !== undefined) return name;
  }
  return undefined;
}

/**
 * Where the form keeps a request field it names differently: the request path ('projectCostFen') → the
 * form's field ('projectCostYuan'), or a function of the path (and the message) for list items. Unlisted
 * paths are the form's.
 */
export type FieldNames =
  | Readonly<Record<string, NamePath>>
  | ((path: Path, message: string) => NamePath | null | undefined);

/**
 * Puts each refused field's message under that field of the form (fields the form does not show are left
 * out) and scrolls to the first. True when at least one field took a message: the caller then shows nothing
 * else; otherwise it shows the refusal's `message` as it would any refusal.
 */
export function applyServerErrors(form: FormInstance, error: unknown, names?: FieldNames): boolean {
  const shown = shownFields(form);
  const placed = new Map<string, { name: NamePath; errors: string[] }>();
  for (const { field, message } of fieldErrorsOf(error)) {
    const path = namePathOf(field);
    const wanted = typeof names === 'function' ? (names(path, message) ?? path) : (names?.[field] ?? path);
    const name = shownAt(shown, Array.isArray(wanted) ? wanted : [wanted]);
    if (name === undefined) continue;
    const entry = placed.get(keyOf(name));
    if (entry) entry.errors.push(message);
    else placed.set(keyOf(name), { name, errors: [message] });
  }
  const fields = [...placed.values()];
  form.setFields(fields);
  // A long form: bring the first refused field into view.
  if (fields[0]) form.scrollToField(fields[0].name);
  return fields.length > 0;
}
