// The sign-in page starts loading the screens it is about to open while the sign-in request
// is on its way (app/router.tsx registers how); /login itself loads none of them.
let warm: (path: string) => void = () => undefined;

export function setWarmUp(f: (path: string) => void) {
  warm = f;
}
export function warmUp(path: string) {
  warm(path);
}
