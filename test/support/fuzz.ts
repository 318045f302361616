import fc from 'fast-check';

/**
 * Generators of hostile request inputs for the route fuzz (test/e2e/platform/route-fuzz.e2e-spec.ts).
 * Body values are JSON *text* fragments, so values JSON.stringify cannot write (-0, 1e400, integers
 * past 2^53) reach the parser as sent.
 */

const json = (a: fc.Arbitrary<unknown>): fc.Arbitrary<string> => a.map((v) => JSON.stringify(v) ?? 'null');

/** Odd strings: empty, huge, astral, right-to-left, combining marks, control characters and NUL. */
export const ODD_STRINGS = [
  '',
  ' ',
  'x'.repeat(100_000),
  '😀'.repeat(30_000),
  'مرحبا \u202Eevil\u202C',
  'e\u0301\u0301\u0301\u0301',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𠜎',
  'a\u0000b',
  '\u0000',
  '\u0007\u001b[31m\r\n\t\u007f\u0085\u2028',
  '\uD800',
  '\uFEFF',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e308',
  '9999-99-99',
  '-000001-01-01T00:00:00Z',
  '2024-01-01T00:00:00.123456789Z',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
  '%00%ff',
  "' OR 1=1 --",
  '{"a":1}',
];

/** Numbers at the edges, as JSON text. */
export const EDGE_NUMBERS = [
  '-0',
  '0',
  '-1',
  '1e308',
  '-1e308',
  '1e400',
  '-1e400',
  '9007199254740993',
  '123456789012345678901234567890',
  '2147483648',
  '-2147483649',
  '0.1e-320',
  '2.5',
];

/** A JSON value fragment of a wrong or odd kind for any field. */
export const fuzzValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: json(fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null))), weight: 2 },
  { arbitrary: json(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 })), weight: 1 },
  { arbitrary: json(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })), weight: 1 },
  { arbitrary: json(fc.string({ unit: 'binary', maxLength: 40 })), weight: 2 },
  { arbitrary: json(fc.constantFrom(...ODD_STRINGS)), weight: 4 },
  { arbitrary: fc.constantFrom(...EDGE_NUMBERS), weight: 2 },
);

/** A path id that is malformed, or well-formed but of nothing. Never only dots (the URL parser would resolve them). */
export const fuzzId: fc.Arbitrary<string> = fc
  .oneof(
    fc.uuid(),
    fc.constantFrom(
      '00000000-0000-4000-8000-000000000000',
      'not-a-uuid',
      '0',
      '-1',
      '1e308',
      'x'.repeat(3000),
      '00000000-0000-0000-0000-00000000000g',
      '\u0000',
      '😀',
      ' ',
      'null',
      '__proto__',
      'constructor',
      '%',
      'a/b',
      'a?b=c#d',
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  )
  .filter((s) => !/^\.+$/.test(s));

/** encodeURIComponent that survives lone surrogates (sent as U+FFFD). */
export const encode = (s: string): string => encodeURIComponent(s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));

/** A query string for one parameter: an odd value, an array (`a=1&a=2`), brackets (`a[b]=c`), empty. */
export const fuzzQuery = (name: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }).map((v) => `${name}=${encode(v)}`),
    fc.constantFrom(...ODD_STRINGS, ...EDGE_NUMBERS).map((v) => `${name}=${encode(v)}`),
    fc.constantFrom(
      `${name}=1&${name}=2`,
      `${name}[b]=c`,
      `${name}[]=x`,
      `${name}[__proto__][x]=1`,
      `${name}`,
      `${name}=`,
      `${name}=%`,
      `${name}=%00`,
      `${name}=${'9'.repeat(400)}`,
    ),
  );

const HOLE = '\u0001FUZZ\u0001';

/** The base body with the value at `path` (dot-separated, array indexes as numbers) replaced by a raw JSON fragment. */
export function bodyWith(base: Record<string, unknown>, path: string, fragment: string): string {
  const copy = structuredClone(base) as any;
  const keys = path.split('.');
  let at = copy;
  for (const k of keys.slice(0, -1)) at = at[k];
  at[keys[keys.length - 1]] = HOLE;
  return JSON.stringify(copy).replace(JSON.stringify(HOLE), fragment);
}

/** Every path of a body down to its leaves (objects and arrays, three levels), the containers included. */
export function bodyPaths(body: Record<string, unknown>, depth = 3, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    const path = prefix ? `${prefix}.${k}` : k;
    out.push(path);
    if (v && typeof v === 'object' && depth > 1) out.push(...bodyPaths(v as Record<string, unknown>, depth - 1, path));
  }
  return out;
}

/**
 * Whole bodies no route takes, as raw text: nesting 10,000 levels deep, prototype keys as real own
 * keys, duplicate keys (the last wins, and is the odd one), over 1 MiB, not JSON, JSON that is not an object.
 */
export function rawBodies(base: Record<string, unknown>, field: string | undefined): string[] {
  const rest = JSON.stringify(base).slice(1, -1);
  const withRest = (head: string) => `{${head}${rest ? ',' + rest : ''}}`;
  const out = [
    `{"a":${'['.repeat(10_000)}1${']'.repeat(10_000)}}`,
    `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
    withRest('"__proto__":{"polluted":"yes"}'),
    withRest('"constructor":{"prototype":{"polluted":"yes"}}'),
    withRest('"prototype":{"polluted":"yes"}'),
    JSON.stringify({ ...base, pad: 'x'.repeat(1024 * 1024) }),
    '{"a":',
    '"just a string"',
    '[]',
    'null',
    '',
  ];
  if (field) {
    out.push(`{${rest ? rest + ',' : ''}"${field}":{"__proto__":{"polluted":"yes"}}}`);
    out.push(`{${rest ? rest + ',' : ''}"${field}":null,"${field}":${'['.repeat(50)}${']'.repeat(50)}}`);
    out.push(`{${rest ? rest + ',' : ''}"${field}":${JSON.stringify('y'.repeat(100_000))}}`);
  }
  return out;
}
