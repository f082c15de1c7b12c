// Request timings per route, kept in memory by an onResponse hook: a call count, the total and the maximum,
// and the N slowest requests of each route (a tiny sorted array; a request faster than the route's N-th
// slowest costs one comparison). Per instance and since start — a diagnostic for the monitor page, not state.
import type { FastifyInstance } from 'fastify';

export interface Timing {
  method: string;
  route: string;
  ms: number;
  status: number;
  at: string;
}

interface RouteStats {
  method: string;
  route: string;
  count: number;
  totalMs: number;
  maxMs: number;
  /** Slowest first, at most `keep`. */
  slowest: Timing[];
}

export class RouteTimings {
  private readonly routes = new Map<string, RouteStats>();
  readonly startedAt = new Date();
  private readonly keep: number;

  constructor(keep = 5) {
    this.keep = keep;
  }

  record(method: string, route: string, ms: number, status: number): void {
    const key = `${method} ${route}`;
    let s = this.routes.get(key);
    if (!s) {
      // Routes are the registered patterns (finite); unmatched paths share one entry.
      s = { method, route, count: 0, totalMs: 0, maxMs: 0, slowest: [] };
      this.routes.set(key, s);
    }
    s.count++;
    s.totalMs += ms;
    if (ms > s.maxMs) s.maxMs = ms;
    const last = s.slowest[s.slowest.length - 1];
    if (s.slowest.length < this.keep || (last && ms > last.ms)) {
      const t: Timing = { method, route, ms: Math.round(ms * 10) / 10, status, at: new Date().toISOString() };
      const i = s.slowest.findIndex((x) => x.ms < t.ms);
      if (i === -1) s.slowest.push(t);
      else s.slowest.splice(i, 0, t);
      if (s.slowest.length > this.keep) s.slowest.pop();
    }
  }

  /** The `limit` slowest requests over all routes. */
  slowest(limit = 20): Timing[] {
    return [...this.routes.values()]
      .flatMap((s) => s.slowest)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, limit);
  }

  summary(): { method: string; route: string; count: number; avgMs: number; maxMs: number }[] {
    return [...this.routes.values()]
      .map((s) => ({
        method: s.method,
        route: s.route,
        count: s.count,
        avgMs: Math.round((s.totalMs / s.count) * 10) / 10,
        maxMs: Math.round(s.maxMs * 10) / 10,
      }))
      .sort((a, b) => b.avgMs - a.avgMs);
  }
}

/**
 * Events counted per instance since start, by name and labels (refused payment notifications by provider and
 * reason …). Callers keep the labels to small fixed sets: every distinct set is an entry.
 */
export class Counters {
  private readonly counts = new Map<string, { labels: Record<string, string>; count: number }>();

  add(name: string, labels: Record<string, string>): void {
    const key = `${name}\u0000${JSON.stringify(labels)}`;
    const entry = this.counts.get(key);
    if (entry) entry.count++;
    else this.counts.set(key, { labels, count: 1 });
  }

  /** The entries of one name: their labels and counts, most frequent first. */
  list(name: string): { labels: Record<string, string>; count: number }[] {
    return [...this.counts]
      .filter(([key]) => key.startsWith(`${name}\u0000`))
      .map(([, e]) => ({ labels: e.labels, count: e.count }))
      .sort((a, b) => b.count - a.count);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    timings: RouteTimings;
    counters: Counters;
  }
}

/** Times every /api request on the root instance; `app.counters` counts events. */
export function registerMetrics(app: FastifyInstance): void {
  app.decorate('timings', new RouteTimings());
  app.decorate('counters', new Counters());
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url;
    if (!route?.startsWith('/api/') || route.startsWith('/api/docs')) return;
    app.timings.record(req.method, route, reply.elapsedTime, reply.statusCode);
  });
}
