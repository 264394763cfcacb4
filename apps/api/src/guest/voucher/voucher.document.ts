// The voucher document: one Letter page with the brand, the ticket's details, the holder
// photo, the barcode as a vector Code 128 and, for a Stored Value Card, a QR code of its
// stored-value page. A pure function of its input: no database, no request.
//
// Libraries: pdfkit writes the PDF (standard fonts only, so no font file is read or
// embedded per request). bwip-js encodes the Code 128: its raw() answer is the symbol itself
// (bar and space widths), drawn here as filled rectangles, exact vectors a scanner reads
// at any resolution, without bwip-js's drawing layer (its pdfkit example traces glyphs from
// font files; its SVG output would need an SVG parser on every request). The QR code comes
// from qrcode (node-qrcode) as a module matrix drawn the same way: bwip-js's QR encoder
// took 4.9 ms for the stored-value URL here, qrcode 0.4 ms, and the goal for a whole
// voucher is 10 ms.
import { readFile } from 'node:fs/promises';
// bwip-js/node: the package's root export names no condition TypeScript's bundler resolution picks.
import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import sharp from 'sharp';
import type { Language } from '@boardwalk/contract/i18n/languages';
import type { PassOrder } from '@boardwalk/contract/pass';
import { purchaserName, ticketholderName, voidReasons } from '@boardwalk/contract/pass-display';
import { balanceOf, passTexts, voidReasonText } from '../ticket/pass-texts.ts';

export interface VoucherContent {
  brandName: string;
  order: PassOrder;
  /** The holder photo as PNG, or null without one. */
  photoPng: Buffer | null;
  /** The Stored Value Card's page (PUBLIC_URL/stored-value/{barcodeHash}), or null for other tickets. */
  storedValueUrl: string | null;
  /** Dates are printed in the park's time zone (PARK_TIMEZONE). */
  timeZone: string;
  /** The words, dates and amounts are the language's (docs/i18n.md); names and product names are printed as they are. */
  language?: Language;
  now?: Date;
}

const PAGE = { width: 612, height: 792, margin: 54 };
const INK = '#1b1b1b';
const MUTED = '#5a5a5a';
const RULE = '#c8c8c8';
const VOID_RED = '#b00020';
/** Code 128 module width and bar height, in points (1/72 in): 0.53 mm modules. */
const BAR_MODULE = 1.5;
const BAR_HEIGHT = 72;
/** QR module size in points (0.95 mm). */
const QR_MODULE = 2.7;

// The standard PDF fonts carry the WinAnsi character set only: Latin-1 plus these.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
/**
 * Text for a standard font: characters it cannot show become their unaccented letter when
 * there is one (NFKD), else "?". Control characters are dropped.
 */
export function winAnsi(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    if (code <= 0xff || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else {
      const base = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      out += /^[\x20-\x7e]+$/.test(base) ? base : '?';
    }
  }
  return out;
}

// The logo (apps/web/public/logo.svg) is rasterised once, on white, to an RGB PNG without
// alpha: pdfkit embeds such a PNG's compressed data as it is, with nothing decoded or
// compressed again per voucher. 256 px for a 54 pt logo is about 340 dpi, enough for print.
const LOGO_FILE = new URL('../../../../web/public/logo.svg', import.meta.url);
const LOGO_PIXELS = 256;
let logoPng: Promise<Buffer | null> | undefined;
/** The logo PNG, made on first use; null (no logo drawn) if the file cannot be read. */
export function loadLogo(): Promise<Buffer | null> {
  logoPng ??= readFile(LOGO_FILE)
    .then((svg) =>
      sharp(svg, { density: (72 * LOGO_PIXELS) / 64 })
        .resize(LOGO_PIXELS, LOGO_PIXELS)
        .flatten({ background: '#ffffff' })
        .png({ compressionLevel: 9, palette: false })
        .toBuffer(),
    )
    .catch(() => null);
  return logoPng;
}

/** Code 128 bar and space widths in modules (bar first), as bwip-js encodes them. */
function encodeCode128(text: string): number[] {
  const [symbol] = bwipjs.raw({ bcid: 'code128', text }) as { sbs: number[] }[];
  if (!symbol) throw new Error('Code 128 encoding failed');
  return symbol.sbs;
}

/** The width a Code 128 takes, quiet zones (10 modules each side) included. */
const code128Width = (sbs: number[]) => (sbs.reduce((a, b) => a + b, 0) + 20) * BAR_MODULE;

/** Code 128 as filled bars, x at the left of the quiet zone. */
function drawCode128(doc: PDFKit.PDFDocument, sbs: number[], x: number, y: number) {
  let cursor = x + 10 * BAR_MODULE;
  sbs.forEach((width, i) => {
    if (i % 2 === 0) doc.rect(cursor, y, width * BAR_MODULE, BAR_HEIGHT);
    cursor += width * BAR_MODULE;
  });
  doc.fill('#000000');
}

/**
 * The QR module matrix (error correction M, one byte-mode segment: a URL gains nothing from
 * mixed modes and the search for them costs).
 */
function encodeQr(text: string) {
  return QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M' }).modules;
}

/** The width (and height) a QR code takes, quiet zones (4 modules each side) included. */
const qrWidth = (size: number) => (size + 8) * QR_MODULE;

/** A QR code as filled modules, each row's runs merged into one rectangle; x, y at the quiet zone's corner. */
function drawQr(doc: PDFKit.PDFDocument, { size, data }: { size: number; data: Uint8Array }, x: number, y: number) {
  const quiet = 4 * QR_MODULE;
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!data[row * size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && data[row * size + col]) col++;
      doc.rect(x + quiet + start * QR_MODULE, y + quiet + row * QR_MODULE, (col - start) * QR_MODULE, QR_MODULE);
    }
  }
  doc.fill('#000000');
}

/** The voucher as PDF bytes. */
export async function renderVoucher(content: VoucherContent): Promise<Buffer> {
  const { order, brandName } = content;
  const now = content.now ?? new Date();
  const t = passTexts(content.language, content.timeZone);
  const date = (iso: string) => t('value.date', { date: new Date(iso) });
  const dateTime = (iso: string) => t('value.dateTime', { date: new Date(iso) });
  const logo = await loadLogo();
  const brand = winAnsi(brandName);

  const doc = new PDFDocument({
    size: 'LETTER',
    margin: PAGE.margin,
    // Only the page's own drawing operators are deflated; the PNGs arrive compressed and
    // pdfkit copies their data as it is.
    compress: true,
    info: { Title: winAnsi(t('voucher.title', { brand: brandName })), Author: brand, Subject: winAnsi(order.product) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  /** A thin grey line across the page at this height, between the voucher's sections. */
  const rule = (at: number) =>
    doc
      .moveTo(left, at)
      .lineTo(left + width, at)
      .lineWidth(1)
      .stroke(RULE);
  let y = PAGE.margin;

  // Brand
  const logoSize = 54;
  if (logo) doc.image(logo, left, y, { width: logoSize, height: logoSize });
  const brandX = logo ? left + logoSize + 14 : left;
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(22)
    .text(brand, brandX, y + 6, { width: width - (brandX - left), height: 26, ellipsis: true });
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(11)
    .text(winAnsi(t('voucher.heading')), brandX, y + 34, { lineBreak: false });
  y += logoSize + 18;
  rule(y);
  y += 20;

  // Product and balance, the photo at the right
  const photoWidth = 150;
  const photoHeight = 200;
  const photo = content.photoPng;
  const textWidth = photo ? width - photoWidth - 20 : width;
  if (photo) {
    doc.image(photo, left + width - photoWidth, y, { fit: [photoWidth, photoHeight], align: 'right' });
  }
  const top = y;
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(9)
    .text(winAnsi(t('voucher.product')), left, y, { characterSpacing: 0.6 });
  y = doc.y + 2;
  // At most three lines: the feed allows 200 characters, the page keeps its room for the codes.
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(18)
    .text(winAnsi(order.product), left, y, { width: textWidth, height: 66, ellipsis: true });
  y = doc.y + 4;
  const reasons = voidReasons(order, now).map((reason) => voidReasonText(reason, t));
  if (reasons.length > 0) {
    doc
      .fillColor(VOID_RED)
      .font('Helvetica-Bold')
      .fontSize(12)
      .text(winAnsi(t('voucher.void', { reasons: reasons.join(' / ') })), left, y, { width: textWidth });
    y = doc.y + 4;
  }
  y += 8;

  const balance = balanceOf(order, t);
  const holder = ticketholderName(order);
  const purchaser = purchaserName(order);
  const rows: [string, string][] = [[balance.label, balance.value]];
  if (holder) rows.push([t('label.ticketholder'), holder]);
  if (purchaser) rows.push([t('label.purchaser'), purchaser]);
  rows.push([t('label.orderId'), order.orderId]);
  if (order.orderDate) rows.push([t('label.orderDate'), date(order.orderDate)]);
  if (order.expires) rows.push([t('label.expires'), date(order.expires)]);
  if (order.redeemed) rows.push([t('label.redeemed'), dateTime(order.redeemed)]);
  else if (order.isRedeemed) rows.push([t('label.redeemed'), t('value.yes')]);

  const labelWidth = 100;
  for (const [label, value] of rows) {
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(10)
      .text(winAnsi(label), left, y + 1, { width: labelWidth, lineBreak: false });
    doc
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(12)
      .text(winAnsi(value), left + labelWidth, y, { width: textWidth - labelWidth, height: 30, ellipsis: true });
    y = doc.y + 6;
  }
  y = Math.max(y, photo ? top + photoHeight : y) + 18;
  rule(y);
  y += 24;

  // The codes side by side: the barcode with its digits, and for a Stored Value Card the QR
  // of its balance page at the right.
  const qr = content.storedValueUrl ? encodeQr(content.storedValueUrl) : null;
  const barColumn = qr ? width - qrWidth(qr.size) - 40 : width;
  const bars = encodeCode128(order.barcode);
  drawCode128(doc, bars, left + (barColumn - code128Width(bars)) / 2, y + 12);
  // Helvetica's digits are of one width: no third font to load for them.
  doc
    .fillColor(INK)
    .font('Helvetica')
    .fontSize(13)
    .text(order.barcode, left, y + 12 + BAR_HEIGHT + 6, { width: barColumn, align: 'center', characterSpacing: 2 });
  if (reasons.length > 0) {
    doc
      .fillColor(VOID_RED)
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(winAnsi(t('voucher.voidNotice')), left, doc.y + 4, { width: barColumn, align: 'center' });
  }
  if (qr) {
    const qrX = left + width - qrWidth(qr.size);
    drawQr(doc, qr, qrX, y);
    const caption = { width: qrWidth(qr.size), align: 'center' } as const;
    doc
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(winAnsi(t('voucher.checkBalance')), qrX, y + qrWidth(qr.size), caption);
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(8)
      .text(winAnsi(t('voucher.scanForBalance')), qrX, doc.y + 2, caption);
  }

  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(8)
    .text(winAnsi(t('voucher.footer', { printed: now })), left, PAGE.height - PAGE.margin - 10, {
      width,
      align: 'center',
      lineBreak: false,
    });

  doc.end();
  return done;
}
