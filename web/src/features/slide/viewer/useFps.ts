import { useEffect, useState } from 'react';

/** Frames per second drawn while on (the viewer's ?bench=N mode). */
export function useFps(on: boolean) {
  const [fps, setFps] = useState(0);
  useEffect(() => {
    if (!on) return;
    let frames = 0;
    let raf = 0;
    const loop = () => {
      frames++;
      raf = requestAnimationFrame(loop);
    };
    raf = requestAnimationFrame(loop);
    const h = setInterval(() => {
      setFps(frames);
      frames = 0;
    }, 1000);
    return () => {
      cancelAnimationFrame(raf);
      clearInterval(h);
    };
  }, [on]);
  return fps;
}
