// Chromium as the browser tests run it (headless, no background traffic); extraArgs add switches.
import type { LaunchOptions } from 'playwright-core';

/**
 * Debian's Chromium in its headless shell build (package chromium-headless-shell: the same
 * source and version as /usr/bin/chromium, without the browser's window, tab strip and UI
 * services), which is what Playwright itself runs for headless Chromium. Against the full
 * browser in its headless mode it took e2e/guest/pass-states.test.ts from 80 to 51 s of the
 * machine's CPU (fixed set-up left out; docs/performance.md). CHROMIUM_PATH=/usr/bin/chromium
 * runs the tests in the full browser.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export function chromiumOptions(extraArgs: string[] = []): LaunchOptions {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? HEADLESS_SHELL,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      // No GPU here: without these the GPU process still composited every frame in software
      // (SwiftShader); compositing in the renderer took the states test from 152 to 129 s of CPU.
      '--disable-gpu-compositing',
      '--disable-software-rasterizer',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...extraArgs,
    ],
  };
}
