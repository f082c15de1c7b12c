// What the server's log (pino, JSON on stdout) may show. Credentials never reach it: the Authorization and
// Cookie headers and any `password` / `token` field are redacted, and the request line is logged with the values
// of secret-bearing query parameters masked — the hand-off link (/piibs/insured/start?token=…), a signed cashier
// link (…&sign=…) or any `code` / `ticket` / `password` a client puts in a URL.
import type { FastifyRequest } from 'fastify';

/** Query parameters whose value is a credential: tokens, one-time codes, tickets, passwords, signatures. */
const SECRET_PARAM =
  /(?:token|ticket|passw(?:or)?d|pwd|secret|signature)$|^(?:code|otp|sign|pass|handoff)$|(?:sms|otp|auth|verify|verification|captcha)[_-]?code$/i;

export const REDACTED = '[REDACTED]';

function paramName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).trim();
  } catch {
    return raw;
  }
}

/** The URL with the value of every secret-bearing query parameter replaced by [REDACTED]. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      return eq >= 0 && SECRET_PARAM.test(paramName(name)) ? `${name}=${REDACTED}` : part;
    });
  return `${url.slice(0, q + 1)}${query.join('&')}`;
}

/** Fastify's request serializer, with the URL redacted. */
function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** The logger settings of every app (level aside). */
export const logOptions = {
  redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'],
  serializers: { req: serializeRequest },
};
