// What a new notification does beyond the bell, when the user opted in
// (account settings): a system notification and, for urgent cases, a short
// sound.
import { alertSoundStore, systemAlertStore } from '../../lib/prefs';

export interface Incoming {
  id: number;
  title: string;
  urgent?: boolean;
  link?: string;
}

let audio: AudioContext | null = null;

/** A short two-tone chime (no sound file to load). */
export function chime() {
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    [880, 660].forEach((f, i) => {
      const o = audio!.createOscillator();
      const g = audio!.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, now + i * 0.18);
      g.gain.exponentialRampToValueAtTime(0.2, now + i * 0.18 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.18 + 0.16);
      o.connect(g).connect(audio!.destination);
      o.start(now + i * 0.18);
      o.stop(now + i * 0.18 + 0.17);
    });
  } catch {
    // no audio: nothing to do
  }
}

/** Shows n as the user asked; open follows its link. */
export function alert(n: Incoming, appTitle: string, open: (link: string) => void) {
  if (n.urgent && alertSoundStore.get() === 'on') chime();
  if (systemAlertStore.get() !== 'on' || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    const sys = new Notification(appTitle, { body: n.title, tag: `telepath-${n.id}` });
    sys.onclick = () => {
      window.focus();
      if (n.link) open(n.link);
      sys.close();
    };
  } catch {
    // some browsers only allow notifications from a service worker
  }
}
