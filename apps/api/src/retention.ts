// `npm run retention [-- --dry-run]`: one run of the retention job now, against the configured
// database (DATABASE_URL, or PGlite in DATA_DIR), printing what it removed by category; with
// --dry-run, what a run would remove, removing nothing. The daily job does the same in the
// server's workers (platform/retention.ts). Exit codes: 0 done, 2 misuse.
import { withCore } from './command.ts';
import { keepFilesPrivate } from './platform/start.ts';

async function main(args: string[]): Promise<number> {
  const dryRun = args.includes('--dry-run');
  if (args.some((a) => a !== '--dry-run')) {
    console.error(
      'Usage: npm run retention [-- --dry-run]\n  removes the personal data whose retention period has passed; --dry-run only counts it',
    );
    return 2;
  }
  return withCore(async (app) => {
    const counts = await app.retention.run({ dryRun });
    console.log(dryRun ? 'A retention run would remove:' : 'Retention run: removed');
    for (const [category, n] of Object.entries(counts)) console.log(`  ${category}: ${n}`);
    return 0;
  });
}

// Whatever it creates in DATA_DIR (the embedded database's files) is the user's alone.
keepFilesPrivate();
process.exitCode = await main(process.argv.slice(2));
