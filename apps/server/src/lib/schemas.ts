import { z } from 'zod';

/**
 * The error envelope every non-2xx answer carries. A refused request (400) also lists the refused fields by
 * request path (`insured.contactPhone`, `items.0.amount`, a query parameter's name) with the message for each.
 */
export const errorBody = z.object({
  status: z.number().int(),
  message: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

/** `{ ok: true }` for calls that have nothing else to say. */
export const okBody = z.object({ ok: z.literal(true) });

/** The error answers of an administrative route, for its OpenAPI entry. */
export const adminErrors = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
};

/**
 * For a list route whose rows the code types itself (a list's toRow): its answer written with JSON.stringify, not
 * checked against the response schema again at every page (that check was 3-7% of a list page's server time). The
 * schema still documents the answer.
 */
export const typedAnswer = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };
