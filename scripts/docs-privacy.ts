// npm run docs:privacy: writes the map of personal data (packages/db/src/personal-data.ts) into
// docs/privacy.md, between its markers.
import { readFileSync, writeFileSync } from 'node:fs';
import { DOC_MARKERS, personalDataMarkdown } from '../packages/db/src/personal-data.ts';

const file = new URL('../docs/privacy.md', import.meta.url);
const doc = readFileSync(file, 'utf8');
const [start, end] = DOC_MARKERS;
const from = doc.indexOf(start);
const to = doc.indexOf(end);
if (from < 0 || to < from) throw new Error(`docs/privacy.md has no ${start} ... ${end}`);
writeFileSync(file, `${doc.slice(0, from + start.length)}\n\n${personalDataMarkdown()}\n\n${doc.slice(to)}`);
console.log('docs/privacy.md: the map of personal data written');
