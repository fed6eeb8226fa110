import { execFileSync } from 'node:child_process';

/** Runs the slide generator global-setup.ts built (internal/slide/slidegen/cmd/slidegen). */
export function slidegen(args: string[]) {
  const bin = process.env.TELEPATH_E2E_SLIDEGEN;
  if (!bin) throw new Error('TELEPATH_E2E_SLIDEGEN is not set: global-setup.ts builds the slide generator');
  execFileSync(bin, args, { stdio: 'inherit' });
}
