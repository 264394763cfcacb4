// Whether `npm start` must build: the build (the web app by Vite, the contract, the database
// package and the API by tsc) reads only files of the repository, so its output is current
// while those files hold the same bytes as when it was made. After a successful build the start
// script writes a content hash of those files (the stamp) beside the build output; at the next
// start it builds again only when the output is missing, the stamp is missing or the files'
// hash differs.
//
// Content, not modification times: a checkout, a copy or an editor touching a file without
// changing it keeps the build, and a change that keeps a file's time (a branch switch within
// the same second, a restored backup) still rebuilds. The files are the ones git tracks, plus
// the ones it does not track and does not ignore (a new file not committed yet), under the
// folders and root files the build reads: apps/ and packages/ (sources, configs, public files),
// the root package.json (the build script), package-lock.json (the compiler, Vite and every
// dependency), tsconfig.base.json and scripts/build-api.mjs. Ignored files (dist/, data/,
// node_modules) are never inputs, so writing the output never changes the hash. Outside a git
// checkout (no git, or an unpacked archive) the inputs cannot be listed: the start builds every
// time, as it always did.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the build reads, relative to the repository's root. */
export const BUILD_INPUTS = ['apps', 'packages', 'package.json', 'package-lock.json', 'tsconfig.base.json', 'scripts/build-api.mjs'];

/** What a build leaves: the server's entry point and the web app's page. */
export const BUILD_OUTPUTS = ['apps/api/dist/server.js', 'apps/web/dist/index.html'];

/** Where the stamp of the last successful build is kept: inside the API's output, which each build removes first. */
export const STAMP_FILE = 'apps/api/dist/build-stamp.txt';

/**
 * The hash of the build's inputs under `root`: each file's path and the hash of its bytes, in
 * path order (a renamed or deleted file changes it too). Null when git cannot list them.
 */
export function inputsHash(root, inputs = BUILD_INPUTS) {
  let listing;
  try {
    listing = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...inputs], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    return null;
  }
  const files = [...new Set(listing.split('\0').filter(Boolean))].sort();
  if (files.length === 0) return null;
  const hash = createHash('sha256');
  for (const file of files) {
    const path = join(root, file);
    // An untracked repository inside is listed as its folder ("dir/"): not a file the build reads.
    if (file.endsWith('/')) continue;
    // A tracked file deleted from the working tree is still listed: it counts as absent.
    const content = existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'absent';
    hash.update(`${file}\0${content}\n`);
  }
  return hash.digest('hex');
}

/**
 * Whether to build: when any output or the stamp is missing, when the inputs cannot be
 * hashed, or when their hash is not the stamp's. `hash` is inputsHash(root), taken before
 * the build so that an edit made while it runs is seen at the next start.
 */
export function needsBuild({ root, hash, outputs = BUILD_OUTPUTS, stampFile = STAMP_FILE }) {
  if (hash === null) return true;
  if (!outputs.every((output) => existsSync(join(root, output)))) return true;
  const stamp = join(root, stampFile);
  return !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== hash;
}

/** Records a successful build of the inputs whose hash is `hash` (nothing when there is none). */
export function writeStamp({ root, hash, stampFile = STAMP_FILE }) {
  if (hash !== null) writeFileSync(join(root, stampFile), `${hash}\n`);
}
