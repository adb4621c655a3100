/**
 * `npx tsx scripts/bench-compact.ts [--markers 100000] [--runs 5]`: the compact marker list
 * (issue 11) against the full one on the sample markers of customs (as `npm run bench` seeds
 * them): bytes (identity, gzip, br), the server's build, and the worker's load (JSON.parse,
 * validation, columns) of each, and of the binary compact list (src/domain/compact-binary.ts), medians. Checks that both loads give the same columns (the
 * round trip at 100,000 markers; the unit tests check it on small lists). Figures:
 * docs/PERFORMANCE.md "First paint (issue 11)".
 */
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { isDeepStrictEqual } from 'node:util';
import { MAPS } from '../src/domain/maps';
import { encodeCompactBinary } from '../src/domain/compact-binary';
import { encodeCompactList } from '../src/domain/compact-markers';
import { sampleItems } from '../server/seed/items';
import { sampleMarkers } from '../server/seed/markers';
import { sampleQuests } from '../server/seed/quests';
import { createMarkerStore } from '../workers/markers';
import { median } from './bench/stats';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} needs a positive whole number`);
  return v;
}

const count = arg('--markers', 100_000);
const runs = arg('--runs', 5);
const map = MAPS.customs;
const markers = sampleMarkers({ map, count, quests: sampleQuests(), items: sampleItems() }).sort((a, b) => (a.uid < b.uid ? -1 : 1));
const fullText = JSON.stringify({ markers });
const time = (f: () => void) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
let compactText = '';
const buildMs = median(Array.from({ length: runs }, () => time(() => (compactText = JSON.stringify(encodeCompactList(markers, map.id, 'en'))))));
let binary: Uint8Array = new Uint8Array();
const binaryBuildMs = median(Array.from({ length: runs }, () => time(() => (binary = encodeCompactBinary(encodeCompactList(markers, map.id, 'en'))))));
const bytes = (text: string | Uint8Array) => {
  const raw = Buffer.from(text);
  return {
    identity: raw.length,
    gzip: gzipSync(raw, { level: 6 }).length,
    br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }).length,
  };
};
const buffer = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;
const parseMs = (text: string) => median(Array.from({ length: runs }, () => time(() => JSON.parse(text))));
const loadMs = (text: string) =>
  median(
    Array.from({ length: runs }, () => {
      const b = buffer(text);
      return time(() => createMarkerStore().load(b, map.id, 'en'));
    }),
  );
const fromFull = createMarkerStore().load(buffer(fullText), map.id, 'en');
const fromCompact = createMarkerStore().load(buffer(compactText), map.id, 'en');
const fromBinary = createMarkerStore().load(binary.slice().buffer, map.id, 'en');
const same =
  isDeepStrictEqual(fromFull.columns, fromCompact.columns) &&
  isDeepStrictEqual(fromFull.counts, fromCompact.counts) &&
  isDeepStrictEqual(fromFull.columns, fromBinary.columns) &&
  isDeepStrictEqual(fromFull.counts, fromBinary.counts) &&
  fromCompact.count === count &&
  fromBinary.count === count;

const full = { ...bytes(fullText), parse: parseMs(fullText), load: loadMs(fullText) };
const compact = { ...bytes(compactText), parse: parseMs(compactText), load: loadMs(compactText) };
const binaryLoadMs = median(
  Array.from({ length: runs }, () => {
    const b = binary.slice().buffer;
    return time(() => createMarkerStore().load(b, map.id, 'en'));
  }),
);
const compactBinary = { ...bytes(binary), parse: Number.NaN, load: binaryLoadMs };
const kb = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
const row = (name: string, r: typeof full) =>
  `| ${name} | ${kb(r.identity)} (${(r.identity / count).toFixed(0)} B/marker) | ${kb(r.gzip)} | ${kb(r.br)} | ${r.parse.toFixed(0)} ms | ${r.load.toFixed(0)} ms |`;
console.log(`${count.toLocaleString('en-US')} sample markers of ${map.id}, Node ${process.version}, medians of ${runs}:`);
console.log('| list | bytes | gzip | br (q5) | JSON.parse | worker load (parse, checks, columns) |');
console.log('|---|---:|---:|---:|---:|---:|');
console.log(row('full `{ markers }`', full));
console.log(row('compact', compact));
console.log(row('compact, binary', compactBinary).replace('NaN ms', '–'));
console.log(`compact build (encode + stringify): ${buildMs.toFixed(0)} ms, binary ${binaryBuildMs.toFixed(0)} ms; load ${(full.load / compact.load).toFixed(1)}× faster, binary ${(compact.load / binaryLoadMs).toFixed(1)}× faster than JSON; same columns and counts: ${same}`);
if (!same) process.exit(1);
