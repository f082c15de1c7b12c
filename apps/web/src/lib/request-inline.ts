import { type RequestConfig, request } from './http.ts';

/**
 * A refusal the page shows next to the form instead of through the global error policy; `errors` is the
 * answer's refused fields, as is (see components/form/server-errors.ts).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: unknown;

  constructor(status: number, message: string, errors?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }
}

/**
 * The server's refusal to show beside a form, or null for anything else (network errors and timeouts were
 * already announced by the HTTP client's notification).
 */
export function errorText(error: unknown): string | null {
  return error instanceof ApiError ? error.message : null;
}

/** The ApiError of a refused answer: its status, and the message and refused fields of its JSON body. */
export function apiErrorOf(status: number, body: unknown): ApiError {
  const { message, errors } = (body as { message?: unknown; errors?: unknown } | null | undefined) ?? {};
  return new ApiError(
    status,
    typeof message === 'string' && message ? message : `请求失败（${status}）`,
    errors,
  );
}

/**
 * A call through the shared client whose HTTP errors come back as an ApiError instead of going through the
 * spec §8 policy. For sign-in forms: there a 401 means "wrong password" or "invalid hand-off", not "your
 * session expired" (which would open the re-login dialog), and a 400/409/429 belongs inline beside the form.
 * Network errors and timeouts still get the client's notice.
 */
export async function requestInline<T>(config: RequestConfig): Promise<T> {
  let status = 0;
  const body = await request<unknown>({
    ...config,
    validateStatus: (code) => {
      status = code;
      return true;
    },
  });
  if (status >= 200 && status < 300) return body as T;
  throw apiErrorOf(status, body);
}
