import { Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useImageUrl, type GalleryImage } from './api';
import { drawLabel } from './draw';

/** An image with its labels drawn on it, scaled to at most maxWidth. */
export function LabelledImage({ item, maxWidth, alt }: { item: GalleryImage; maxWidth: number; alt: string }) {
  const url = useImageUrl(item.path, item.version);
  const [img, setImg] = useState<HTMLImageElement | null>(null);
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!url) return;
    const i = new window.Image();
    i.onload = () => setImg(i);
    i.src = url;
  }, [url]);
  const scale = img ? Math.min(1, maxWidth / img.naturalWidth) : 1;
  useEffect(() => {
    const c = ref.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx || !img) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(img.naturalWidth * scale * dpr);
    c.height = Math.round(img.naturalHeight * scale * dpr);
    ctx.setTransform(scale * dpr, 0, 0, scale * dpr, 0, 0);
    ctx.drawImage(img, 0, 0);
    for (const l of item.labels) drawLabel(ctx, l);
  }, [img, scale, item.labels]);
  if (!img) return <Spin />;
  return <canvas ref={ref} role="img" aria-label={alt} style={{ width: img.naturalWidth * scale, height: img.naturalHeight * scale, maxWidth: '100%' }} />;
}
