import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILD_OUTPUTS, inputsHash, needsBuild, STAMP_FILE, writeStamp } from './build-stamp.mjs';

// A small repository shaped like this one: sources under apps/ and packages/, a lock file,
// ignored build output, and what a successful build leaves.
let root: string;
const write = (file: string, text: string) => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
/** What `npm start` does after a build: the outputs exist and the stamp records the inputs. */
const build = () => {
  const hash = inputsHash(root);
  for (const output of BUILD_OUTPUTS) write(output, 'built');
  writeStamp({ root, hash });
};
const mustBuild = () => needsBuild({ root, hash: inputsHash(root) });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-stamp-'));
  git('init', '-q');
  write('.gitignore', 'node_modules\ndist/\n');
  write('package.json', '{"scripts":{"build":"vite build"}}');
  write('package-lock.json', '{}');
  write('apps/api/src/server.ts', 'listen();');
  write('apps/web/src/main.tsx', 'render();');
  write('packages/contract/src/pass.ts', 'export const a = 1;');
  write('e2e/journey.test.ts', 'test();');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'sources');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('npm start builds only when the sources changed since the last build', () => {
  it('builds on a fresh clone: no build output', () => {
    expect(mustBuild()).toBe(true);
  });

  it('does not build again when nothing changed, though the build wrote its ignored output', () => {
    build();
    write('apps/web/dist/assets/index-abc.js', 'bundle');
    expect(mustBuild()).toBe(false);
  });

  it('builds when a source file changed, committed or not', () => {
    build();
    write('apps/api/src/server.ts', 'listen(8080);');
    expect(mustBuild()).toBe(true);
    build();
    git('commit', '-qam', 'port');
    expect(mustBuild()).toBe(false);
  });

  it('builds when a file is added (not yet tracked), renamed or deleted', () => {
    build();
    write('packages/contract/src/wallet.ts', 'export const b = 2;');
    expect(mustBuild()).toBe(true);
    build();
    unlinkSync(join(root, 'packages/contract/src/wallet.ts'));
    git('mv', 'apps/web/src/main.tsx', 'apps/web/src/entry.tsx');
    expect(mustBuild()).toBe(true);
    build();
    unlinkSync(join(root, 'apps/api/src/server.ts'));
    expect(mustBuild()).toBe(true);
  });

  it('builds when the dependencies changed (the lock file)', () => {
    build();
    write('package-lock.json', '{"vite":"8"}');
    expect(mustBuild()).toBe(true);
  });

  it('does not build for a change the build does not read (the browser tests)', () => {
    build();
    write('e2e/journey.test.ts', 'test(2);');
    expect(mustBuild()).toBe(false);
  });

  it('builds when an output or the stamp is missing (a removed dist/, a build that failed)', () => {
    build();
    rmSync(join(root, BUILD_OUTPUTS[1]!));
    expect(mustBuild()).toBe(true);
    build();
    rmSync(join(root, STAMP_FILE));
    expect(mustBuild()).toBe(true);
  });

  it('builds every time outside a git checkout (the inputs cannot be listed)', () => {
    rmSync(join(root, '.git'), { recursive: true });
    expect(inputsHash(root)).toBeNull();
    build();
    expect(mustBuild()).toBe(true);
  });
});
