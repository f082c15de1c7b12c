// A server refusal placed on the form's own fields. A 400 names every refused field by its request path
// (`{ status, message, errors: [{ field: 'contacts.0.phone', message }] }`, docs/api.md "Errors"); the form
// shows each message under its field, and the caller shows `message` itself only when no field took one.
import type { FormInstance } from 'antd';
import type { NamePath } from 'antd/es/form/interface';
import axios from 'axios';

type Path = (string | number)[];

/** The refused fields of a failed call (empty for a refusal about no field, or a network failure). */
function fieldErrorsOf(error: unknown): { field: string; message: string }[] {
  if (!axios.isAxiosError(error)) return [];
  const errors = (error.response?.data as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.filter(
    (e): e is { field: string; message: string } =>
      typeof e?.field === 'string' && e.field !== '' && typeof e.message === 'string',
  );
}

/** 'contacts.0.phone' → ['contacts', 0, 'phone'] (antd's name of a Form.List item's field). */
function namePathOf(field: string): Path {
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

const keyOf = (name: NamePath): string => (Array.isArray(name) ? name : [name]).map(String).join('.');

/**
 * Where the form keeps a request field it names differently: the request path ('projectCostFen') → the
 * form's field ('projectCostYuan'), or a function of the path for list items. Unlisted paths are the form's.
 */
export type FieldNames = Readonly<Record<string, NamePath>> | ((path: Path) => NamePath | undefined);

/**
 * Puts each refused field's message under that field of the form (fields the form does not show are left
 * out). True when at least one field took a message: the caller then shows nothing else; otherwise it
 * shows the refusal's `message` as it would any refusal.
 */
export function applyServerErrors(form: FormInstance, error: unknown, names?: FieldNames): boolean {
  const shown = new Map<string, NamePath>();
  for (const { name } of form.getFieldsError()) shown.set(keyOf(name), name);
  const placed = new Map<string, { name: NamePath; errors: string[] }>();
  for (const { field, message } of fieldErrorsOf(error)) {
    const path = namePathOf(field);
    const wanted = typeof names === 'function' ? (names(path) ?? path) : (names?.[field] ?? path);
    const name = shown.get(keyOf(wanted));
    if (name === undefined) continue;
    const entry = placed.get(keyOf(name));
    if (entry) entry.errors.push(message);
    else placed.set(keyOf(name), { name, errors: [message] });
  }
  form.setFields([...placed.values()]);
  return placed.size > 0;
}
