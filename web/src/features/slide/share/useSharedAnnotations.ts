// The case's annotations of a shared slide, everyone's together, read-only.
// The case's doctors may edit them while the link is open, so the copy is
// read again when the slide is shown again (its pane mounts) and when the
// window gets the focus back after ANNOTATIONS_FRESH_MS; every read is a
// visit the owner sees, hence no re-read on every focus.
import { useQuery } from '@tanstack/react-query';
import type { Annotation } from '../annotations';

export const ANNOTATIONS_FRESH_MS = 30_000;

const NONE: Annotation[] = [];

async function readAnnotations(url: string): Promise<Annotation[]> {
  const res = await fetch(url);
  if (!res.ok) return NONE; // the link ended: nothing more is shown
  const body = (await res.json()) as { data?: { labels?: Annotation[] | null }[] | null };
  let id = -1;
  return (body.data ?? []).flatMap((set) => (set.labels ?? []).map((a) => ({ ...a, id: id-- })));
}

export function useSharedAnnotations(url: string | undefined) {
  return useQuery({
    queryKey: ['share', 'annotations', url],
    enabled: !!url,
    queryFn: () => readAnnotations(url!),
    staleTime: ANNOTATIONS_FRESH_MS,
    refetchOnMount: 'always',
    refetchOnWindowFocus: true,
  });
}
