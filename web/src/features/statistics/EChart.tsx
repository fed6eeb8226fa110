import { useEffect, useRef } from 'react';

type Chart = { setOption: (o: Record<string, unknown>, notMerge: boolean) => void; resize: () => void; dispose: () => void };

interface Props {
  option: Record<string, unknown>;
  label: string;
  locale: string;
  height?: number;
  testId?: string;
}

/** A thin wrapper over ECharts: loads the library on first use, follows the option and the container's size. */
export function EChart({ option, label, locale, height = 320, testId }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart | null>(null);
  const latest = useRef(option);
  latest.current = option;
  useEffect(() => {
    let gone = false;
    let observer: ResizeObserver | undefined;
    void import('./echarts').then(({ initChart }) => {
      if (gone || !ref.current) return;
      const c = initChart(ref.current, locale);
      chart.current = c;
      c.setOption(latest.current, true);
      observer = new ResizeObserver(() => c.resize());
      observer.observe(ref.current);
    });
    return () => {
      gone = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [locale]);
  useEffect(() => chart.current?.setOption(option, true), [option]);
  return <div ref={ref} role="img" aria-label={label} data-testid={testId} style={{ width: '100%', height }} />;
}
