/**
 * A small in-process cache of computed answers: an entry lives `ttlMs`, at most `max` are kept (the oldest goes
 * first), and callers asking for a key while it is being computed share the one computation. Losing it (a
 * restart, another instance) only costs a recomputation, so it holds nothing that matters across requests.
 */
export class TtlCache<T> {
  readonly #entries = new Map<string, { expires: number; value: Promise<T> }>();
  readonly #ttlMs: number;
  readonly #max: number;

  constructor(ttlMs: number, max: number) {
    this.#ttlMs = ttlMs;
    this.#max = max;
  }

  get(key: string, compute: () => Promise<T>, now: number = Date.now()): Promise<T> {
    const hit = this.#entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (hit) this.#entries.delete(key);
    const value = compute();
    this.#entries.set(key, { expires: now + this.#ttlMs, value });
    // A failure is not kept: the next call tries again.
    value.catch(() => {
      if (this.#entries.get(key)?.value === value) this.#entries.delete(key);
    });
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    return value;
  }
}
