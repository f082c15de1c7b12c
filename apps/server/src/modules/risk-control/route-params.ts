// The path parameters and OpenAPI tags the risk-control routes share.
import { z } from 'zod';

export const positiveId = (title: string) =>
  z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).meta({ title });
export const idParams = (title: string) => z.object({ id: positiveId(title) });

export const tags = { orgs: ['risk-control'], prevention: ['risk-control'] };
