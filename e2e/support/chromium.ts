// Chromium as the browser tests run it (headless, no background traffic); extraArgs add switches.
import type { LaunchOptions } from 'playwright-core';

export function chromiumOptions(extraArgs: string[] = []): LaunchOptions {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
