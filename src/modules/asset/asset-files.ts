import type { ByteRange } from './storage/file-store';

/** Enough of a file's start to tell the raster formats below apart. */
export const SNIFF_BYTES = 16;

/**
 * The raster image formats browsers draw and the service shows inline (docs/files.md, "Safety"),
 * told by their first bytes. SVG is not among them: it can carry script.
 */
const SIGNATURES: { type: string; test: (b: Buffer) => boolean }[] = [
  { type: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', test: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', test: (b) => /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1')) },
  { type: 'image/webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { type: 'image/bmp', test: (b) => b.subarray(0, 2).toString('latin1') === 'BM' && b.length >= 14 },
  { type: 'image/avif', test: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp' && /^avi[fs]$/.test(b.subarray(8, 12).toString('latin1')) },
];

/** The declared types an image of a description or comment may have. */
export const RASTER_IMAGE_TYPES: readonly string[] = SIGNATURES.map((s) => s.type).concat('image/jpg');

/** The raster image type the bytes are, or null. */
export function sniffRasterImage(start: Buffer): string | null {
  return SIGNATURES.find((s) => s.test(start))?.type ?? null;
}

/** A content type as a client may declare it: `type/subtype`, optional parameters, nothing else. */
export const CONTENT_TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\r\n]*"|[a-z0-9!#$&^_.+-]+))*$/i;

/** The type without parameters, lower case (`Image/PNG; x=1` → `image/png`). */
export const bareType = (contentType: string): string => contentType.split(';')[0].trim().toLowerCase();

const MAX_FILENAME = 200;

/**
 * A file name fit to store and show: the last part of any path (`../../etc/passwd` → `passwd`,
 * `C:\\x\\a.png` → `a.png`), without control or bidirectional-override characters, trimmed, at
 * most 200 characters (the extension kept), never empty, `.` or `..`.
 */
export function safeFilename(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  let clean = last
    .normalize('NFC')
    // C0 and C1 controls, DEL, and the bidi overrides/isolates that can disguise an extension.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f]/g, '')
    .trim();
  if ([...clean].length > MAX_FILENAME) {
    const chars = [...clean];
    const dot = clean.lastIndexOf('.');
    const ext = dot > 0 && clean.length - dot <= 16 ? [...clean.slice(dot)] : [];
    clean = chars.slice(0, MAX_FILENAME - ext.length).join('') + ext.join('');
  }
  if (!clean || clean === '.' || clean === '..') return 'file';
  return clean;
}

/**
 * `Content-Disposition` per RFC 6266: a plain ASCII `filename` for old clients (anything else
 * replaced by `_`, quotes and backslashes too) and `filename*` with the UTF-8 name
 * percent-encoded (RFC 8187).
 */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The one range of a `Range` header for a file of `size` bytes (RFC 9110 §14): a range, 'whole'
 * when the whole file should be sent (no header, another unit, several ranges, a syntax error:
 * a server may ignore such a header), or 'unsatisfiable' (416).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'whole' | 'unsatisfiable' {
  if (!header) return 'whole';
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'whole';
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return 'whole';
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
