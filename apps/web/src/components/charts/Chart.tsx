// A chart drawn as SVG by React, as wide as its box (ResizeObserver) and as high as asked. The drawing is an
// image with a one-sentence summary (role="img"); the box around it takes the keyboard focus, and the arrow
// keys (or the pointer) pick an item — a category, a slice, a stage — whose figures a tooltip shows and a
// polite live region reads out.
import { type KeyboardEvent, type PointerEvent, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { VISUALLY_HIDDEN } from '@/lib/visually-hidden.ts';
import {
  arcPath,
  cartesianLayout,
  describeChart,
  detailOf,
  FONT_SIZE,
  funnelLayout,
  itemCount,
  pieLayout,
  shareOfFirst,
} from './geometry.ts';
import type { ChartSpec, ChartTheme } from './spec.ts';
import { CHART_TEXTS as T } from './texts.ts';

export interface ChartProps {
  spec: ChartSpec;
  /** The chart's title (the summary starts with it). */
  label: string;
  height: number;
  theme: ChartTheme;
}

/** Where the browser cannot tell what is near the viewport (and in tests, which have no layout): drawn this wide. */
const DEFAULT_WIDTH = 480;

/** How far outside the viewport a chart is drawn already, so scrolling finds it drawn. */
const NEAR_VIEWPORT = '50% 0px';

/**
 * The box's size to draw at, or null while the chart waits: a chart is drawn once its box comes near the
 * viewport (a chart below the fold costs a page's first load nothing) and is measured by a ResizeObserver,
 * whose answers come after the browser's own layout, so no reading here forces one. Printing draws every chart.
 * Without an IntersectionObserver the chart is drawn at once, DEFAULT_WIDTH wide until the box is measured.
 */
function useBoxSize(height: number) {
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(() =>
    typeof IntersectionObserver === 'undefined' ? { width: DEFAULT_WIDTH, height } : null,
  );
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      // A hidden box (a kept tab in <Activity>) measures 0: keep the last size until it is shown again.
      if (element.clientWidth > 0 && element.clientHeight > 0)
        setSize((s) =>
          s?.width === element.clientWidth && s.height === element.clientHeight
            ? s
            : { width: element.clientWidth, height: element.clientHeight },
        );
    };
    const resize = new ResizeObserver(measure);
    if (typeof IntersectionObserver === 'undefined') {
      resize.observe(element);
      return () => resize.disconnect();
    }
    const near = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        near.disconnect();
        resize.observe(element);
      },
      { rootMargin: NEAR_VIEWPORT },
    );
    near.observe(element);
    // A printed page has every chart drawn, scrolled to or not: drawn now, before the browser lays out the print.
    const print = () =>
      flushSync(() => setSize((s) => s ?? { width: element.clientWidth || DEFAULT_WIDTH, height }));
    window.addEventListener('beforeprint', print);
    return () => {
      near.disconnect();
      resize.disconnect();
      window.removeEventListener('beforeprint', print);
    };
  }, [height]);
  return { box, size };
}

export function Chart({ spec, label, height, theme }: ChartProps) {
  const legendItems =
    spec.kind === 'cartesian' && spec.series.length > 1
      ? spec.series.map((s) => ({ name: s.name, color: s.color }))
      : spec.kind === 'pie'
        ? spec.slices.map((s) => ({
            name: `${s.name} ${shareOfFirst(
              s.value,
              spec.slices.reduce((n, x) => n + Math.max(0, x.value), 0),
            )}`,
            color: s.color,
          }))
        : [];
  const legend = legendItems.length > 0 && (
    <ul
      aria-hidden="true"
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'center',
        gap: '2px 12px',
        margin: 0,
        padding: '0 0 4px',
        listStyle: 'none',
        fontSize: FONT_SIZE,
        color: theme.text,
        maxHeight: 44,
        overflow: 'hidden',
        flex: 'none',
      }}
    >
      {legendItems.map((item) => (
        <li key={item.name} style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
          <span style={{ width: 10, height: 10, borderRadius: 2, background: item.color }} />
          {item.name}
        </li>
      ))}
    </ul>
  );
  return (
    <div style={{ height, display: 'flex', flexDirection: 'column' }}>
      {spec.kind !== 'pie' && legend}
      <Plot spec={spec} label={label} theme={theme} height={height} />
      {spec.kind === 'pie' && legend}
    </div>
  );
}

function Plot({ spec, label, theme, height: asked }: ChartProps) {
  const { box, size } = useBoxSize(asked);
  const [active, setActive] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');
  const count = itemCount(spec);
  const current = active !== null && active < count ? active : null;

  const width = size?.width;
  const height = size?.height;
  const layout = useMemo(() => {
    if (width === undefined || height === undefined) return null;
    if (spec.kind === 'cartesian')
      return { kind: 'cartesian' as const, l: cartesianLayout(spec, width, height) };
    if (spec.kind === 'pie') return { kind: 'pie' as const, l: pieLayout(spec, width, height) };
    return { kind: 'funnel' as const, l: funnelLayout(spec, width, height) };
  }, [spec, width, height]);
  const summary = useMemo(() => describeChart(label, spec), [label, spec]);
  const detail = current === null ? null : detailOf(spec, current);

  const speak = (i: number) => {
    const d = detailOf(spec, i);
    if (!d) return;
    const parts = d.rows.map((r) =>
      spec.kind === 'cartesian' ? `${r.name} ${r.value}` : r.name ? `${r.value}（${r.name}）` : r.value,
    );
    setAnnounce(`${d.title}：${parts.join('，')}`);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (count === 0) return;
    const last = count - 1;
    const from = current ?? -1;
    const next =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? Math.min(last, from + 1)
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? Math.max(0, from === -1 ? 0 : from - 1)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (e.key === 'Escape') {
      setActive(null);
      return;
    }
    if (next === null) return;
    e.preventDefault();
    setActive(next);
    speak(next);
  };
  const onPointer = (e: PointerEvent<HTMLDivElement>) => {
    if (!layout) return;
    const rect = e.currentTarget.getBoundingClientRect();
    setActive(layout.l.hit(e.clientX - rect.left, e.clientY - rect.top));
  };

  const anchor = current === null || !layout ? null : layout.l.anchor(current);
  const muted = (i: number) => current !== null && current !== i;

  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable chart, not a group of form fields
    <div
      ref={box}
      role="group"
      aria-roledescription={T.roleDescription}
      aria-label={`${label}${T.keyboardHint}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the arrow keys step through the chart's items
      tabIndex={0}
      className="piibs-chart"
      onKeyDown={onKeyDown}
      onPointerMove={onPointer}
      onPointerLeave={() => setActive(null)}
      onBlur={() => setActive(null)}
      style={{ position: 'relative', flex: 1, minHeight: 0, outlineOffset: 2 }}
    >
      <svg
        role="img"
        aria-label={summary}
        // Not drawn yet: the summary is there (for screen readers, wherever the page is scrolled), the shapes not.
        width={width ?? '100%'}
        height={height ?? asked}
        viewBox={layout ? `0 0 ${width} ${height}` : undefined}
        style={{ display: 'block', overflow: 'visible', fontSize: FONT_SIZE, fontFamily: 'inherit' }}
      >
        {layout?.kind === 'cartesian' && spec.kind === 'cartesian' && (
          <g>
            {current !== null && (
              <rect
                {...(layout.l.horizontal
                  ? {
                      x: layout.l.plot.left,
                      y: layout.l.band(current).start,
                      width: layout.l.plot.right - layout.l.plot.left,
                      height: layout.l.band(current).size,
                    }
                  : {
                      x: layout.l.band(current).start,
                      y: layout.l.plot.top,
                      width: layout.l.band(current).size,
                      height: layout.l.plot.bottom - layout.l.plot.top,
                    })}
                fill={theme.split}
                opacity={0.6}
              />
            )}
            {layout.l.grid.map((p) =>
              layout.l.horizontal ? (
                <line
                  key={p}
                  x1={p}
                  x2={p}
                  y1={layout.l.plot.top}
                  y2={layout.l.plot.bottom}
                  stroke={theme.split}
                />
              ) : (
                <line
                  key={p}
                  x1={layout.l.plot.left}
                  x2={layout.l.plot.right}
                  y1={p}
                  y2={p}
                  stroke={theme.split}
                />
              ),
            )}
            {layout.l.labels.map((t) => (
              <text
                key={`${t.x},${t.y},${t.text}`}
                x={t.x}
                y={t.y}
                textAnchor={t.anchor}
                fill={theme.secondary}
              >
                {t.text}
              </text>
            ))}
            {layout.l.bars.map((b) => (
              <rect
                key={`${b.x},${b.y},${b.color}`}
                x={b.x}
                y={b.y}
                width={b.width}
                height={b.height}
                fill={b.color}
                opacity={muted(b.index) ? 0.75 : 1}
              />
            ))}
            {layout.l.lines.map((line) => (
              <g key={line.name}>
                <polyline
                  points={line.points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' ')}
                  fill="none"
                  stroke={line.color}
                  strokeWidth={2}
                  strokeLinejoin="round"
                />
                {line.points.map(([x, y], i) =>
                  line.points.length <= 31 || i === current ? (
                    <circle
                      key={`${x},${y}`}
                      cx={x}
                      cy={y}
                      r={i === current ? 5 : 3}
                      fill={theme.surface}
                      stroke={line.color}
                      strokeWidth={2}
                    />
                  ) : null,
                )}
              </g>
            ))}
          </g>
        )}
        {layout?.kind === 'pie' && spec.kind === 'pie' && (
          <g>
            {layout.l.arcs.map((arc) => (
              <path
                key={arc.index}
                d={arcPath(layout.l, layout.l.inner, layout.l.outer + (current === arc.index ? 6 : 0), arc)}
                fill={arc.color}
                stroke={theme.surface}
                strokeWidth={1}
                opacity={muted(arc.index) ? 0.75 : 1}
              />
            ))}
          </g>
        )}
        {layout?.kind === 'funnel' && (
          <g>
            {layout.l.stages.map((s, i) => (
              <g key={s.label.text}>
                <polygon points={s.points} fill={s.color} opacity={muted(i) ? 0.75 : 1} />
                {[s.label, s.value].map((t) => (
                  <text key={t.anchor} x={t.x} y={t.y} textAnchor={t.anchor} fill={theme.text}>
                    {t.text}
                  </text>
                ))}
              </g>
            ))}
          </g>
        )}
      </svg>
      {detail && anchor && (
        <div
          aria-hidden="true"
          style={{
            position: 'absolute',
            left: Math.min(Math.max(anchor.x, 80), Math.max(80, (width ?? DEFAULT_WIDTH) - 80)),
            top: anchor.y,
            transform: 'translate(-50%, calc(-100% - 8px))',
            pointerEvents: 'none',
            background: theme.surface,
            color: theme.text,
            border: `1px solid ${theme.split}`,
            borderRadius: 6,
            boxShadow: '0 3px 6px -4px rgba(0,0,0,.12), 0 6px 16px 0 rgba(0,0,0,.08)',
            padding: '6px 10px',
            fontSize: FONT_SIZE,
            whiteSpace: 'nowrap',
            zIndex: 1,
          }}
        >
          <div style={{ fontWeight: 600, marginBottom: 2 }}>{detail.title}</div>
          {detail.rows.map((r) => (
            <div key={r.name} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
              <span style={{ width: 8, height: 8, borderRadius: 4, background: r.color }} />
              <span>{r.name}</span>
              <span style={{ marginLeft: 'auto', paddingLeft: 12, fontVariantNumeric: 'tabular-nums' }}>
                {r.value}
              </span>
            </div>
          ))}
        </div>
      )}
      <div aria-live="polite" style={VISUALLY_HIDDEN}>
        {announce}
      </div>
    </div>
  );
}
