// Test support: a check of a .pkpass that does not trust the generator. The archive is
// unpacked by Info-ZIP's unzip, the manifest's SHA-1s are recomputed here, and the signature
// is verified by the openssl command line against the development root certificate.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

export interface UnpackedPass {
  dir: string;
  /** Every file in the archive, by its path inside it. */
  files: Map<string, Buffer>;
  manifest: Record<string, string>;
  pass: Record<string, unknown>;
  cleanup(): Promise<void>;
}

async function listFiles(dir: string, root = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path, root)));
    else out.push(relative(root, path));
  }
  return out.sort();
}

export async function unpackPass(pkpass: Buffer): Promise<UnpackedPass> {
  const dir = await mkdtemp(join(tmpdir(), 'bw-pkpass-'));
  const archive = join(dir, 'pass.pkpass');
  await writeFile(archive, pkpass);
  const out = join(dir, 'unpacked');
  execFileSync('unzip', ['-q', archive, '-d', out]);
  const files = new Map<string, Buffer>();
  for (const name of await listFiles(out)) files.set(name, await readFile(join(out, name)));
  return {
    dir: out,
    files,
    manifest: JSON.parse(files.get('manifest.json')?.toString('utf8') ?? '{}') as Record<string, string>,
    pass: JSON.parse(files.get('pass.json')?.toString('utf8') ?? '{}') as Record<string, unknown>,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * Problems with the manifest: a listed file missing or with another SHA-1, a file not listed
 * (manifest.json and signature aside). Empty when the manifest covers the archive exactly.
 */
export async function manifestProblems(dir: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Record<string, string>;
  const problems: string[] = [];
  const present = (await listFiles(dir)).filter((f) => f !== 'manifest.json' && f !== 'signature');
  for (const name of present) if (!(name in manifest)) problems.push(`${name} is not in the manifest`);
  for (const [name, sha1] of Object.entries(manifest)) {
    let data: Buffer;
    try {
      data = await readFile(join(dir, name));
    } catch {
      problems.push(`${name} is missing`);
      continue;
    }
    const actual = createHash('sha1').update(data).digest('hex');
    if (actual !== sha1) problems.push(`${name}: SHA-1 ${actual}, manifest says ${sha1}`);
  }
  return problems;
}

/** `openssl smime -verify` of the detached signature over manifest.json: its exit status and output. */
export function opensslVerify(dir: string, caFile: string): { ok: boolean; output: string } {
  const r = spawnSync(
    'openssl',
    [
      'smime',
      '-verify',
      '-binary',
      '-inform',
      'DER',
      '-in',
      join(dir, 'signature'),
      '-content',
      join(dir, 'manifest.json'),
      '-CAfile',
      caFile,
      '-purpose',
      'any',
      '-out',
      '/dev/null',
    ],
    { encoding: 'utf8' },
  );
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

/**
 * A pass.strings file's entries as Wallet reads them: UTF-16 with its byte order mark (or
 * UTF-8), one `"key" = "value";` a line with C escapes. A line of any other shape throws.
 */
export function readPassStrings(data: Buffer): Map<string, string> {
  const text =
    data[0] === 0xff && data[1] === 0xfe
      ? new TextDecoder('utf-16le').decode(data.subarray(2))
      : data[0] === 0xfe && data[1] === 0xff
        ? new TextDecoder('utf-16be').decode(data.subarray(2))
        : data.toString('utf8');
  const unescape = (s: string) => s.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t' })[c] ?? c);
  const entries = new Map<string, string>();
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    const m = /^\s*"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)"\s*;\s*$/.exec(line);
    if (!m) throw new Error(`Not a strings entry: ${line}`);
    entries.set(unescape(m[1]!), unescape(m[2]!));
  }
  return entries;
}
