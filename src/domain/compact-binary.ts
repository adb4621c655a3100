/**
 * The compact marker list in binary (issue 11): the same columns as the JSON compact list
 * (compact-markers.ts), laid out so the markers worker reads them as typed arrays over the
 * response's bytes, with one UTF-8 decode for all uids and one for all labels, instead of a
 * JSON.parse of 7.6 MB at 100,000 markers. `GET /api/be/markers/compact?map=&lang=&format=binary`
 * answers it (`application/vnd.raidmap.markers-compact`); without `format` the route answers
 * JSON as before.
 *
 * Layout (little-endian; n = count; every column starts on a multiple of its element size):
 *
 *   0        "RMCB"                       magic
 *   4        u32 version                  COMPACT_BINARY_VERSION
 *   8        u32 H                        header length in bytes
 *   12       header, UTF-8 JSON           { map, lang, count, kinds, quests, uidBytes, labelBytes }
 *   P        (zero padding: P = 12 + H rounded up to a multiple of 8)
 *   P        f64[n] x, f64[n] y           map pixels, exactly as stored
 *   P + 16n  i32[n] quest                 index into quests, -1: none
 *   P + 20n  u32[n] uid length            in UTF-16 code units (JavaScript string length)
 *   P + 24n  u32[n] label length          in UTF-16 code units; 0: the subCategory
 *   P + 28n  i16[n] level
 *   P + 30n  u16[n] kind                  index into kinds
 *   P + 32n  uidBytes of UTF-8            every uid, one after another
 *            labelBytes of UTF-8          every label, one after another
 *
 * The rows are checked as the JSON list's are (checkCompactRow): a bad row is dropped and
 * reported; a body whose frame is wrong (magic, version, lengths) is refused as a whole.
 */
import { type Language, LANGUAGES } from './marker';
import { COMPACT_FORMAT, type CompactMarkerList, type CompactRows, CompactListError, type DecodedCompactList, checkTables, keepGoodRows, rowsToRecords } from './compact-markers';

export const COMPACT_BINARY_MAGIC = 'RMCB';
export const COMPACT_BINARY_VERSION = 1;
export const COMPACT_BINARY_TYPE = 'application/vnd.raidmap.markers-compact';

/** Bytes per row in the fixed-size columns. */
const ROW_BYTES = 32;
const PREFIX_BYTES = 12;
/** Written where a level does not fit an i16 (never for a stored marker): the check refuses it. */
const LEVEL_OUT_OF_RANGE = -32768;

interface BinaryHeader {
  format: typeof COMPACT_FORMAT;
  map: string;
  lang: Language;
  count: number;
  kinds: [string, string][];
  quests: string[];
  uidBytes: number;
  labelBytes: number;
}

const align8 = (n: number) => (n + 7) & ~7;

/** True when the bytes start with the binary compact list's magic. */
export function isCompactBinary(bytes: ArrayBuffer | Uint8Array): boolean {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return view.length >= 4 && view[0] === 0x52 && view[1] === 0x4d && view[2] === 0x43 && view[3] === 0x42;
}

function isLittleEndian(): boolean {
  return new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
}

/** The binary form of a compact list (the server builds it from encodeCompactList's result). */
export function encodeCompactBinary(list: CompactMarkerList): Uint8Array {
  if (!isLittleEndian()) throw new Error('the binary compact list is written on little-endian machines only');
  const n = list.count;
  const encoder = new TextEncoder();
  const uidText = list.uid.join('');
  const labelText = list.label.join('');
  const uidUtf8 = encoder.encode(uidText);
  const labelUtf8 = encoder.encode(labelText);
  const header: BinaryHeader = {
    format: COMPACT_FORMAT,
    map: list.map,
    lang: list.lang,
    count: n,
    kinds: list.kinds,
    quests: list.quests,
    uidBytes: uidUtf8.length,
    labelBytes: labelUtf8.length,
  };
  const headerUtf8 = encoder.encode(JSON.stringify(header));
  const start = align8(PREFIX_BYTES + headerUtf8.length);
  const buffer = new ArrayBuffer(start + ROW_BYTES * n + uidUtf8.length + labelUtf8.length);
  const bytes = new Uint8Array(buffer);
  bytes.set([0x52, 0x4d, 0x43, 0x42]);
  const prefix = new DataView(buffer);
  prefix.setUint32(4, COMPACT_BINARY_VERSION, true);
  prefix.setUint32(8, headerUtf8.length, true);
  bytes.set(headerUtf8, PREFIX_BYTES);
  new Float64Array(buffer, start, n).set(list.x);
  new Float64Array(buffer, start + 8 * n, n).set(list.y);
  new Int32Array(buffer, start + 16 * n, n).set(list.quest);
  const uidLength = new Uint32Array(buffer, start + 20 * n, n);
  const labelLength = new Uint32Array(buffer, start + 24 * n, n);
  const level = new Int16Array(buffer, start + 28 * n, n);
  const kind = new Uint16Array(buffer, start + 30 * n, n);
  if (list.kinds.length > 0xffff) throw new Error(`the binary compact list holds at most 65535 kinds, not ${list.kinds.length}`);
  for (let i = 0; i < n; i++) {
    uidLength[i] = list.uid[i].length;
    labelLength[i] = list.label[i].length;
    const l = list.level[i];
    level[i] = Number.isInteger(l) && l >= -32767 && l <= 32767 ? l : LEVEL_OUT_OF_RANGE;
    kind[i] = list.kind[i];
  }
  bytes.set(uidUtf8, start + ROW_BYTES * n);
  bytes.set(labelUtf8, start + ROW_BYTES * n + uidUtf8.length);
  return bytes;
}

function readHeader(bytes: Uint8Array): { header: BinaryHeader; knownKind: boolean[]; start: number } {
  if (!isCompactBinary(bytes)) throw new CompactListError('not a binary compact marker list (no "RMCB" magic)');
  if (bytes.length < PREFIX_BYTES) throw new CompactListError('binary compact marker list: cut short before its header');
  const prefix = new DataView(bytes.buffer, bytes.byteOffset, PREFIX_BYTES);
  const version = prefix.getUint32(4, true);
  if (version !== COMPACT_BINARY_VERSION) throw new CompactListError(`binary compact marker list version ${version} is not supported (want ${COMPACT_BINARY_VERSION})`);
  const headerBytes = prefix.getUint32(8, true);
  if (PREFIX_BYTES + headerBytes > bytes.length) throw new CompactListError('binary compact marker list: cut short inside its header');
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + headerBytes)));
  } catch (error) {
    throw new CompactListError(`binary compact marker list: its header is not valid UTF-8 JSON (${(error as Error).message})`);
  }
  const h = header as Partial<BinaryHeader> | null;
  const whole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (!h || typeof h !== 'object' || h.format !== COMPACT_FORMAT) throw new CompactListError(`binary compact marker list: its header's format is not "${COMPACT_FORMAT}"`);
  if (!whole(h.count) || !whole(h.uidBytes) || !whole(h.labelBytes)) throw new CompactListError('binary compact marker list: "count", "uidBytes" and "labelBytes" must be whole numbers');
  const tables = checkTables(h.kinds, h.quests, 'binary compact marker list');
  const start = align8(PREFIX_BYTES + headerBytes);
  const expected = start + ROW_BYTES * h.count + h.uidBytes + h.labelBytes;
  if (bytes.length !== expected) throw new CompactListError(`binary compact marker list: ${bytes.length} bytes where its header says ${expected}`);
  return {
    knownKind: tables.knownKind,
    header: { ...(h as BinaryHeader), kinds: tables.kinds, quests: tables.quests, map: typeof h.map === 'string' ? h.map : '', lang: (LANGUAGES as readonly unknown[]).includes(h.lang) ? (h.lang as Language) : 'en' },
    start,
  };
}

/** Cuts `text` into strings of the given lengths; null when the lengths do not add up to it. */
function cut(text: string, lengths: Uint32Array): string[] | null {
  const out = new Array<string>(lengths.length);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    const end = at + lengths[i];
    if (end > text.length) return null;
    out[i] = text.slice(at, end);
    at = end;
  }
  return at === text.length ? out : null;
}

/**
 * Checks a binary compact list and keeps its good rows as columns: typed views over the bytes
 * themselves (no copy) and the uids and labels cut from one decode each. A wrong frame throws
 * CompactListError; a bad row is dropped and reported, as in the JSON list.
 */
export function compactRowsFromBinary(input: ArrayBuffer | Uint8Array): CompactRows {
  if (!isLittleEndian()) throw new CompactListError('the binary compact list is read on little-endian machines only');
  let bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  // Typed views need aligned offsets: a Buffer from Node's pool may start anywhere.
  if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
  const { header, knownKind, start } = readHeader(bytes);
  const n = header.count;
  const base = bytes.byteOffset + start;
  const buffer = bytes.buffer;
  const uidLength = new Uint32Array(buffer, base + 20 * n, n);
  const labelLength = new Uint32Array(buffer, base + 24 * n, n);
  const textStart = start + ROW_BYTES * n;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let uidText: string;
  let labelText: string;
  try {
    uidText = decoder.decode(bytes.subarray(textStart, textStart + header.uidBytes));
    labelText = decoder.decode(bytes.subarray(textStart + header.uidBytes, textStart + header.uidBytes + header.labelBytes));
  } catch {
    throw new CompactListError('binary compact marker list: its uids or labels are not valid UTF-8');
  }
  const uid = cut(uidText, uidLength);
  const label = cut(labelText, labelLength);
  if (!uid || !label) throw new CompactListError('binary compact marker list: the uid or label lengths do not add up to their text');
  return keepGoodRows({
    map: header.map,
    lang: header.lang,
    kinds: header.kinds,
    knownKind,
    quests: header.quests,
    count: n,
    uid,
    label,
    x: new Float64Array(buffer, base, n),
    y: new Float64Array(buffer, base + 8 * n, n),
    level: new Int16Array(buffer, base + 28 * n, n),
    kind: new Uint16Array(buffer, base + 30 * n, n),
    quest: new Int32Array(buffer, base + 16 * n, n),
  });
}

/** The same checks, one record per good row (what decodeCompactList gives for the JSON list). */
export function decodeCompactBinary(input: ArrayBuffer | Uint8Array): DecodedCompactList {
  return rowsToRecords(compactRowsFromBinary(input));
}
