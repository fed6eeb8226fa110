// The drawing side of the viewer: the active tool, colour and line width, the
// selected annotation, and the label form that names what was drawn.
import { useCallback, useEffect, useMemo, useState, type Dispatch, type SetStateAction } from 'react';
import { annotationBounds, DEFAULT_COLOR, nextId, type Annotation, type Tool } from '../annotations';
import type { ActiveTool, Draft } from '../AnnotationLayer';
import type { LabelValues } from '../AnnotationPanel';
import { fitImageRect, type Viewer } from '../osd';

export function useAnnotationTools(slideId: number, viewer: Viewer | null, setAnnotations: Dispatch<SetStateAction<Annotation[]>>) {
  const [active, setActive] = useState<ActiveTool | null>(null);
  const [color, setColor] = useState(DEFAULT_COLOR);
  const [lineWidth, setLineWidth] = useState(2);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [form, setForm] = useState<{ draft?: Draft; edit?: Annotation } | null>(null);
  useEffect(() => setSelectedId(null), [slideId]);

  const selectTool = useCallback((tool: Tool | null, measure: boolean) => {
    setActive(tool ? { tool, measure } : null);
    setSelectedId(null);
  }, []);

  // A measurement is kept as drawn; a shape asks for its label first.
  const onFinish = useCallback(
    (d: Draft) => {
      if (d.measure) {
        setAnnotations((l) => [...l, { id: nextId(l), tool: d.tool, points: d.points, color, lineWidth: 2, description: '', measure: true }]);
        return;
      }
      setForm({ draft: d });
    },
    [color, setAnnotations],
  );

  const saveForm = (v: LabelValues) => {
    if (form?.edit) {
      const id = form.edit.id;
      setAnnotations((l) => l.map((a) => (a.id === id ? { ...a, ...v } : a)));
    } else if (form?.draft) {
      const d = form.draft;
      setAnnotations((l) => {
        const a: Annotation = { id: nextId(l), tool: d.tool, points: d.points, color: v.color, lineWidth: v.lineWidth ?? lineWidth, description: v.description ?? '' };
        if (d.tool === 'text') a.fontSize = v.fontSize ?? 16;
        setSelectedId(a.id);
        return [...l, a];
      });
      setColor(v.color);
      if (v.lineWidth) setLineWidth(v.lineWidth);
    }
    setForm(null);
  };

  const formInitial = useMemo<LabelValues>(
    () => (form?.edit ? { color: form.edit.color, lineWidth: form.edit.lineWidth, description: form.edit.description, fontSize: form.edit.fontSize } : { color, lineWidth, description: '', fontSize: 16 }),
    [form, color, lineWidth],
  );

  const jumpTo = (a: Annotation) => {
    setSelectedId(a.id);
    if (viewer) fitImageRect(viewer, annotationBounds(a));
  };

  return { active, selectTool, color, setColor, lineWidth, setLineWidth, selectedId, setSelectedId, form, setForm, onFinish, saveForm, formInitial, jumpTo };
}

export type AnnotationTools = ReturnType<typeof useAnnotationTools>;
