import { useEffect, useState } from 'react';
import { Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { listResult } from '../../lib/api/list';
import { DEFAULT_THRESHOLDS, clockText, elapsedMs, level, type Thresholds } from './frozenClock';

/** The current time, every second. */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const h = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(h);
  }, [intervalMs]);
  return now;
}

const LEVEL_COLOUR = { ok: 'green', amber: 'gold', red: 'red' } as const;
// Darker text on antd's light tag backgrounds: readable (WCAG AA contrast).
const TEXT = { green: { color: '#135200' }, gold: { color: '#613400' }, red: { color: '#a8071a' } } as const;

/** Time since the slides arrived, counting up: amber and red at the thresholds; stops at the report. */
export function Elapsed({ from, until, thresholds = DEFAULT_THRESHOLDS, title }: { from: string; until?: string | null; thresholds?: Thresholds; title?: string }) {
  const now = useNow();
  const ms = elapsedMs(from, until, now);
  const lv = level(ms, thresholds);
  return (
    <Tag color={LEVEL_COLOUR[lv]} style={TEXT[LEVEL_COLOUR[lv]]} className="tp-mono" data-testid="frozen-elapsed" data-level={lv} title={title}>
      {clockText(ms)}
    </Tag>
  );
}

/** The frozen appointment of a case (its slides' arrival and report times), or null for other cases. */
export function useCaseFrozen(caseId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['frozen', 'case', caseId],
    enabled: enabled && caseId > 0,
    queryFn: async () => {
      const r = listResult(await api.GET('/api/frozen/appointment/lists', { params: { query: { page: 1, page_size: 1, params: JSON.stringify({ consultation_id: caseId }) } } }));
      const a = r.rows[0];
      return a?.arrived_at ? { arrived_at: a.arrived_at, reported_at: a.reported_at ?? null, thresholds: { amberMin: a.frozen_amber_min, redMin: a.frozen_red_min } } : null;
    },
  });
}
