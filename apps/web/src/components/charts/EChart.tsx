// One echarts instance in a div. echarts itself is loaded on the first chart's mount (./echarts-setup.ts, a
// chunk of its own); until then, and if loading fails, the box keeps its height and says so.
import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import { useEffect, useRef, useState } from 'react';
import { CHART_TEXTS as T } from './texts.ts';

let loading: Promise<typeof import('./echarts-setup.ts')> | null = null;
/** The echarts chunk, fetched once. A failed fetch is forgotten so the next chart tries again. */
function loadECharts() {
  loading ??= import('./echarts-setup.ts').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

export interface EChartProps {
  option: EChartsCoreOption;
  /** What the chart shows, for screen readers (the table view has the figures). */
  label: string;
  height?: number;
}

/**
 * Draws `option` (replacing what was drawn before). The chart re-measures whenever its box changes size —
 * the sidebar folding, the window resizing, or a kept tab being shown again after it was hidden (a hidden
 * <Activity> also cleans up this effect, and showing it again makes a fresh instance).
 */
export default function EChart({ option, label, height = 280 }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const latest = useRef(option);
  latest.current = option;
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let cancelled = false;
    let observer: ResizeObserver | undefined;
    loadECharts()
      .then(({ init }) => {
        if (cancelled) return;
        const instance = init(element, undefined, { renderer: 'canvas' });
        instance.setOption(latest.current, { notMerge: true });
        chart.current = instance;
        observer = new ResizeObserver(() => {
          // A hidden box measures 0 × 0: wait until it is shown again.
          if (element.clientWidth > 0 && element.clientHeight > 0) instance.resize();
        });
        observer.observe(element);
        setState('ready');
      })
      .catch(() => {
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return (
    <div style={{ position: 'relative', height }}>
      <div ref={box} role="img" aria-label={label} style={{ width: '100%', height: '100%' }} />
      {state !== 'ready' && (
        <div
          style={{
            position: 'absolute',
            inset: 0,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            color: 'rgba(128, 128, 128, 0.85)',
          }}
        >
          {state === 'loading' ? T.loading : T.failed}
        </div>
      )}
    </div>
  );
}
