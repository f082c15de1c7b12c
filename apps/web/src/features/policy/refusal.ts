// A server refusal names its field first ("手续费比例：不能超过该险种的上限 3%"): find the form field it belongs to.
const FIELD_MESSAGE = /^([^：]{1,20})：(.+)$/s;

/** The form field and the message to show under it, or null when the message names no field of the form. */
export function fieldRefusal(
  message: string,
  titles: Readonly<Record<string, string>>,
): { name: string; error: string } | null {
  const m = FIELD_MESSAGE.exec(message);
  if (!m) return null;
  const name = Object.entries(titles).find(([, title]) => title === m[1])?.[0];
  return name ? { name, error: m[2]! } : null;
}
