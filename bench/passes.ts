// npm run bench:passes: Apple Wallet passes per second for the same ticket, from Boardwalk's
// builder (apps/api/src/wallet/apple) and from a plain passkit-generator 3.x
// script (a model folder with the same images, the same certificates, PKPass.from per pass),
// in one process, one core, interleaved in rounds so that other work on the machine weighs
// on both alike. Goal (issue 3): Boardwalk >= 10x passkit-generator. Both passes are checked
// once with unzip, their manifests and `openssl smime -verify` before anything is measured.
//
// Then vouchers per second and their median time (bench/vouchers.ts; goal median <= 10 ms).
//
//   BENCH_SECONDS=10   seconds of measurement per builder and per voucher way (after a warm-up)
//   BENCH_DB=pglite    database of the voucher route run: pglite or postgres
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PKPass } from 'passkit-generator';
import type { PassOrder } from '@boardwalk/contract/pass';
import { loadAppleCredentials } from '../apps/api/src/wallet/apple/apple-certificates.ts';
import { renderPassImages } from '../apps/api/src/wallet/apple/apple-pass-images.ts';
import { createPkpassBuilder } from '../apps/api/src/wallet/apple/apple-pkpass.ts';
import { createManifestSigner } from '../apps/api/src/wallet/apple/apple-signature.ts';
import { applePassContent } from '../apps/api/src/wallet/apple/apple-pass-content.service.ts';
import type { Relevance } from '../apps/api/src/wallet/pass-style.service.ts';
import { loadConfig } from '../apps/api/src/platform/config.ts';
import { newSecret } from '../apps/api/src/platform/secrets.ts';
import { manifestProblems, opensslVerify, unpackPass } from '../apps/api/test-support/pkpass-check.ts';
import { fmt, positiveNumber } from './bench-support.ts';
import { benchVouchers } from './vouchers.ts';

const GOAL_RATIO = 10;
const ROUNDS = 10;
const seconds = positiveNumber('BENCH_SECONDS', 10);

/**
 * The ticket both builders make a pass for: a dated admission with an NFC barcode, so an
 * event ticket with semantic tags, the visit day's hours as relevant dates and the park's
 * locations (the richest pass.json Boardwalk makes).
 */
const order: PassOrder = {
  orderId: '10000002',
  barcode: '3400000000000028',
  firstName: 'Rosa',
  lastName: 'Diaz',
  email: 'rosa@example.com',
  phone: '3105550100',
  optInEmailMarketing: false,
  optInSMSMarketing: false,
  isPassActivated: true,
  isRedeemed: false,
  isWristband: false,
  excluded: null,
  shareId: '',
  sharedWith: null,
  iCloudBindingLink: null,
  iCloudBoundToWallet: false,
  photoUid: null,
  skipRegistration: false,
  skipImage: false,
  passLocked: false,
  isPassholder: false,
  credits: 40,
  cash: 12.5,
  category: 'Day Ticket',
  purchaserFirstName: 'Carl',
  purchaserLastName: 'Diaz',
  orderDate: '2026-11-20T18:15:00.000Z',
  redeemed: null,
  expires: '2027-12-31T23:59:59.000Z',
  visitDate: '2027-07-04',
  product: 'Day Admission',
  refunded: false,
  backgroundColor: '#1b4965',
  foregroundColor: '#ffffff',
  ticketShares: [],
  ticketShareToken: null,
  wristbandActivateToken: null,
  barcodeHash: null,
};

/** The visit day's hours and two locations, as the park settings would give them. */
const relevance: Relevance = {
  hours: [{ opensAt: new Date('2027-07-04T17:00:00Z'), closesAt: new Date('2027-07-05T05:00:00Z') }],
  locations: [
    {
      name: 'Main Gate',
      latitude: 34.0094,
      longitude: -118.4973,
      relevantText: 'Welcome! Your ticket is ready at the Main Gate.',
      relevantTextEs: '¡Le damos la bienvenida! Su boleto está listo en la Entrada Principal.',
    },
    {
      name: 'Pier Entrance',
      latitude: 34.0087,
      longitude: -118.4988,
      relevantText: 'Show your ticket at the Pier Entrance.',
      relevantTextEs: 'Muestre su boleto en la Entrada del Muelle.',
    },
  ],
};

interface Builder {
  name: string;
  make(serial: number): Buffer | Promise<Buffer>;
}

async function setUp() {
  const dir = await mkdtemp(join(tmpdir(), 'bw-bench-passes-'));
  const config = loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://wallet.example.com', DEMO_DATA: 'false' });
  const silent = { warn() {}, info() {} };
  const credentials = await loadAppleCredentials(config, silent);
  const images = await renderPassImages();
  const row = {
    customization: {
      backgroundColor: '1b4965',
      color: 'ffffff',
      instructions: 'Show this pass at the gate.',
      googleInstructions: null,
      instructionsEs: 'Escanee este boleto en la entrada.',
      googleInstructionsEs: null,
      googleUri: null,
      hideBarcode: false,
    },
    exclusion: null,
  };

  // Boardwalk: what POST /api/apple-wallet/ does once it has the ticket.
  const builder = createPkpassBuilder({ signer: createManifestSigner(credentials), staticFiles: images });
  const boardwalk: Builder = {
    name: 'Boardwalk',
    make(serial) {
      const content = applePassContent({
        order,
        row,
        serialNumber: '',
        photoPng: null,
        config,
        nfcPublicKey: credentials.nfcPublicKey,
        relevance,
      });
      return builder.build(
        {
          ...content.pass,
          serialNumber: `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`,
          authenticationToken: newSecret(32),
        },
        content.files,
      );
    },
  };

  // passkit-generator: a model folder with the same images and the static part of pass.json,
  // the same certificates as PEM, and the per-ticket part set through its API.
  const model = join(dir, 'boardwalk.pass');
  await mkdir(model);
  for (const [name, data] of Object.entries(images)) await writeFile(join(model, name), data);
  const sample = applePassContent({
    order,
    row,
    serialNumber: '',
    photoPng: null,
    config,
    nfcPublicKey: credentials.nfcPublicKey,
    relevance,
  }).pass;
  const fields = sample.eventTicket as Record<string, unknown[]>;
  await writeFile(
    join(model, 'pass.json'),
    JSON.stringify({
      formatVersion: 1,
      passTypeIdentifier: sample.passTypeIdentifier,
      teamIdentifier: sample.teamIdentifier,
      organizationName: sample.organizationName,
      description: sample.description,
      logoText: sample.logoText,
      backgroundColor: sample.backgroundColor,
      foregroundColor: sample.foregroundColor,
      labelColor: sample.labelColor,
      sharingProhibited: true,
      eventTicket: {},
    }),
  );
  const chain = await readFile(join(dir, 'certs', 'apple-dev-chain.pem'), 'utf8');
  const blocks = chain.match(/-----BEGIN [A-Z ]+-----[\s\S]+?-----END [A-Z ]+-----/g) ?? [];
  const [signerKey, signerCert, wwdr] = blocks as [string, string, string];
  const passkitGenerator: Builder = {
    name: 'passkit-generator',
    async make(serial) {
      const pass = await PKPass.from(
        { model, certificates: { wwdr, signerCert, signerKey } },
        {
          serialNumber: `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`,
          authenticationToken: newSecret(32),
          webServiceURL: sample.webServiceURL as string,
          semantics: sample.semantics as never,
        },
      );
      pass.type = 'eventTicket';
      pass.headerFields.push(...(fields.headerFields as never[]));
      pass.primaryFields.push(...(fields.primaryFields as never[]));
      pass.secondaryFields.push(...(fields.secondaryFields as never[]));
      pass.auxiliaryFields.push(...(fields.auxiliaryFields as never[]));
      pass.backFields.push(...(fields.backFields as never[]));
      pass.setBarcodes(...(sample.barcodes as never[]));
      pass.setExpirationDate(new Date(sample.expirationDate as string));
      pass.setNFC(sample.nfc as never);
      pass.setLocations(...(sample.locations as never[]));
      pass.setRelevantDates(sample.relevantDates as never);
      pass.setRelevantDate(new Date(sample.relevantDate as string));
      return pass.getAsBuffer();
    },
  };
  return { dir, rootCa: join(dir, 'certs', 'apple-dev-root.pem'), builders: [boardwalk, passkitGenerator] };
}

/** Checks one pass of each builder the way the API tests do: unzip, manifest, openssl. */
async function check(builder: Builder, rootCa: string) {
  const unpacked = await unpackPass(await builder.make(0));
  try {
    const problems = await manifestProblems(unpacked.dir);
    const verified = opensslVerify(unpacked.dir, rootCa);
    if (problems.length > 0 || !verified.ok)
      throw new Error(`${builder.name}'s pass does not verify: ${[...problems, verified.output].join('; ')}`);
    const pass = unpacked.pass as {
      barcodes?: { message: string }[];
      nfc?: unknown;
      eventTicket?: unknown;
      semantics?: unknown;
      relevantDates?: unknown[];
      locations?: unknown[];
    };
    if (pass.barcodes?.[0]?.message !== order.barcode || !pass.nfc) throw new Error(`${builder.name}'s pass lacks the barcode or NFC`);
    if (!pass.eventTicket || !pass.semantics || pass.relevantDates?.length !== 1 || pass.locations?.length !== 2)
      throw new Error(`${builder.name}'s pass lacks the event ticket style, its semantics, relevant dates or locations`);
    return unpacked.files.size;
  } finally {
    await unpacked.cleanup();
  }
}

/** Makes passes for `ms` milliseconds: how many. */
async function run(builder: Builder, ms: number, serialStart: number) {
  let n = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    await builder.make(serialStart + n);
    n++;
  }
  return n;
}

function gitRevision() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

async function main() {
  const { dir, rootCa, builders } = await setUp();
  try {
    for (const b of builders)
      console.log(`${b.name}: a pass of ${await check(b, rootCa)} files verifies with openssl against the development root`);
    for (const b of builders) await run(b, Math.min(1000, seconds * 100), 1);

    const load = loadavg()[0]!;
    const totals = new Map(builders.map((b) => [b.name, { passes: 0, ms: 0 }]));
    const perRound = (seconds * 1000) / ROUNDS;
    for (let round = 0; round < ROUNDS; round++) {
      for (const b of round % 2 === 0 ? builders : [...builders].reverse()) {
        const started = performance.now();
        const n = await run(b, perRound, 1000 + round * 1_000_000);
        const total = totals.get(b.name)!;
        total.passes += n;
        total.ms += performance.now() - started;
      }
    }
    const rate = (name: string) => {
      const t = totals.get(name)!;
      return t.passes / (t.ms / 1000);
    };
    const ours = rate('Boardwalk');
    const theirs = rate('passkit-generator');
    const ratio = ours / theirs;
    const rule = '─'.repeat(72);
    console.log(`\n${rule}`);
    console.log(
      `Apple Wallet passes, one core, ${fmt(seconds)} s each in ${ROUNDS} interleaved rounds (git ${gitRevision()}, load ${fmt(load, 2)})`,
    );
    console.log(`  Boardwalk           ${fmt(ours).padStart(8)} passes/s   ${fmt(1000 / ours, 2).padStart(7)} ms/pass`);
    console.log(`  passkit-generator   ${fmt(theirs).padStart(8)} passes/s   ${fmt(1000 / theirs, 2).padStart(7)} ms/pass`);
    console.log(
      `  ratio               ${fmt(ratio, 1).padStart(8)}x   (goal >= ${GOAL_RATIO}x: ${ratio >= GOAL_RATIO ? 'met' : 'NOT met'})`,
    );
    console.log(rule);

    // The voucher, the third way a guest takes a pass away (goal: median <= 10 ms).
    console.log('');
    if (!(await benchVouchers(process.env.BENCH_DB === 'postgres' ? 'postgres' : 'pglite', seconds))) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
