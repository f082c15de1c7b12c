import type { FieldProblem } from '@piibs/shared/problem';

/** A refused field: its request path ("insured.contactPhone", "items.0.amount"; a query or path parameter's name) and the message to show beside it. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * An error with an HTTP status and a Chinese, human-readable message that is safe to show the user. `errors`
 * names the refused fields, for a form to show each message beside its field.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly errors: readonly FieldError[] | undefined;
  constructor(status: number, message: string, errors?: readonly FieldError[]) {
    super(message);
    this.status = status;
    this.errors = errors;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
/**
 * A refusal about one field of the request, checked by hand (a business rule; a 400 unless it conflicts with
 * the record's state, 409): `errors` puts `message` on `field` (its request path), and the notice reads
 * "label：message" as a validation failure's does (just `message` without a label).
 */
export const fieldError = (field: string, message: string, label?: string, status: 400 | 409 = 400) =>
  new HttpError(status, label ? `${label}：${message}` : message, [{ field, message }]);
/** The 400 of a rule the shared code found broken (periodProblem, rateRowsProblem …), at its field. */
export const problemError = (p: FieldProblem) => fieldError(p.field, p.message, p.label);
export const forbidden = (message = '没有权限执行此操作') => new HttpError(403, message);
export const notFound = (message = '记录不存在') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
