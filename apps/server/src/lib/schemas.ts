import { z } from 'zod';

/** The error envelope every non-2xx answer carries. */
export const errorBody = z.object({ status: z.number().int(), message: z.string() });

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
