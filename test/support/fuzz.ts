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

/** Lone UTF-16 surrogates: high, low, a pair in the wrong order, a high one before an ordinary character. */
export const LONE_SURROGATES = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uDC00\uD800', '\uD83Dx'];

/**
 * A string holding at least one lone surrogate somewhere (fast-check's strings never hold one):
 * text that is not well-formed Unicode, which every route must refuse (4xx) and never store.
 */
export const loneSurrogateString: fc.Arbitrary<string> = fc
  .tuple(fc.string({ unit: 'binary', maxLength: 12 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ unit: 'binary', maxLength: 12 }))
  .map(([before, unit, after]) => before + String.fromCharCode(unit) + after);

/** A JSON fragment carrying a lone surrogate: as a value, inside an array, or as an object key (at any depth). */
export const loneSurrogateFragment: fc.Arbitrary<string> = fc.oneof(
  json(loneSurrogateString),
  json(fc.constantFrom(...LONE_SURROGATES)),
  json(loneSurrogateString.map((s) => ['ok', s])),
  json(loneSurrogateString.map((s) => ({ [s]: 1 }))),
  json(loneSurrogateString.map((s) => ({ a: { [s]: 'x' } }))),
);

/**
 * Whether a request carries text that is not well-formed Unicode: a lone surrogate in any string
 * or key of its JSON body, or percent escapes in its URL that do not decode to UTF-8 (`%FF`,
 * `%ED%A0%80`). Such a request must be refused. Written apart from the service's check, as the
 * fuzz's oracle.
 */
export function carriesIllFormedText(url: string, raw: string | undefined): boolean {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for (const [run] of url.matchAll(/(?:%[0-9A-Fa-f]{2})+/g)) {
    try {
      utf8.decode(Buffer.from(run.replace(/%/g, ''), 'hex'));
    } catch {
      return true;
    }
  }
  if (raw === undefined) return false;
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return false;
  }
  const wellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
  const stack = [body];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string' && !wellFormed(v)) return true;
    if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (!wellFormed(k)) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

/** An IPv4 address as the hex groups of an IPv6 address (`127.0.0.1` → `7f00:1`), and inverted (Teredo's client). */
const hexGroups = (ipv4: string, invert = false): string => {
  const n = ipv4.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
  const v = invert ? 0xffffffff - n : n;
  return `${Math.floor(v / 0x10000).toString(16)}:${(v % 0x10000).toString(16)}`;
};

/** Teredo's default server (teredo.ipv6.microsoft.com), a public address, as hex groups; its client below is 8.8.8.8. */
const TEREDO_SERVER = hexGroups('65.54.227.120');
const TEREDO_CLIENT = hexGroups('8.8.8.8', true);

/**
 * The IPv6 forms that carry an IPv4 address, each written the ways a URL may hold it. The
 * destination guard must judge each like the IPv4 address it carries (docs/integrations.md,
 * "Destination guard"). NAT64's local-use prefix (64:ff9b:1::/48) is apart: refused whatever it carries.
 */
export function ipv6Carrying(ipv4: string): { form: string; address: string }[] {
  const hex = hexGroups(ipv4);
  return [
    { form: 'IPv4-compatible', address: `::${ipv4}` },
    { form: 'IPv4-compatible (hex)', address: `::${hex}` },
    { form: 'IPv4-compatible (in full)', address: `0:0:0:0:0:0:${ipv4}` },
    { form: 'IPv4-mapped', address: `::ffff:${ipv4}` },
    { form: 'IPv4-mapped (hex, upper case)', address: `::FFFF:${hex.toUpperCase()}` },
    { form: 'NAT64', address: `64:ff9b::${ipv4}` },
    { form: '6to4', address: `2002:${hex}::1` },
    { form: '6to4 (with subnet and host)', address: `2002:${hex}:beef:1:2:3:4` },
    { form: 'Teredo server', address: `2001:0:${hex}:0:0:${TEREDO_CLIENT}` },
    { form: 'Teredo client', address: `2001:0:${TEREDO_SERVER}:8000:63bf:${hexGroups(ipv4, true)}` },
  ];
}

/** IPv4 addresses of the ranges the guard refuses (loopback, private, link-local with the metadata endpoint, CGNAT, `this network`, multicast, reserved, broadcast). */
export const REFUSED_IPV4 = [
  '127.0.0.1',
  '127.255.0.9',
  '10.0.0.1',
  '172.16.5.4',
  '172.31.255.254',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '0.0.0.1',
  '224.0.0.1',
  '240.0.0.1',
  '255.255.255.255',
  '192.0.2.1',
];

/** An IPv4 address: mostly any (fast-check's), often one of the refused ranges, sometimes a well-known public one. */
export const fuzzIPv4: fc.Arbitrary<string> = fc.oneof(
  fc.ipV4(),
  fc.constantFrom(...REFUSED_IPV4),
  fc
    .tuple(fc.constantFrom('127', '10', '169.254', '192.168', '100.64'), fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 3, maxLength: 3 }))
    .map(([head, rest]) => [...head.split('.'), ...rest].slice(0, 4).join('.')),
  fc.constantFrom('8.8.8.8', '93.184.216.34', '1.1.1.1'),
);

/** A destination URL whose host is an IPv6 literal carrying an IPv4 address, with the form and the address. */
export const fuzzDestination: fc.Arbitrary<{ url: string; ipv4: string; form: string; address: string }> = fc
  .tuple(fuzzIPv4, fc.nat(), fc.constantFrom('http', 'https'), fc.constantFrom('', ':8080', ':443'))
  .map(([ipv4, k, scheme, port]) => {
    const forms = ipv6Carrying(ipv4);
    const { form, address } = forms[k % forms.length];
    return { url: `${scheme}://[${address}]${port}/hook`, ipv4, form, address };
  });

/** A JSON value fragment of a wrong or odd kind for any field. */
export const fuzzValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: json(fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null))), weight: 2 },
  { arbitrary: json(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 })), weight: 1 },
  { arbitrary: json(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })), weight: 1 },
  { arbitrary: json(fc.string({ unit: 'binary', maxLength: 40 })), weight: 2 },
  { arbitrary: json(fc.constantFrom(...ODD_STRINGS)), weight: 4 },
  { arbitrary: fc.constantFrom(...EDGE_NUMBERS), weight: 2 },
  { arbitrary: loneSurrogateFragment, weight: 2 },
  { arbitrary: json(fuzzDestination.map((d) => d.url)), weight: 1 },
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

/**
 * encodeURIComponent that survives lone surrogates: each is written as the three bytes UTF-8 would
 * give it were it a character (`\uD800` → `%ED%A0%80`, as WTF-8 does), which are not UTF-8, so the
 * request carries text that is not well-formed and must be refused.
 */
export const encode = (s: string): string =>
  s
    .split(/([\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/)
    .map((part, i) => {
      if (i % 2 === 0) return encodeURIComponent(part);
      const c = part.charCodeAt(0);
      return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    })
    .join('');

/**
 * The odd values that fit in a request line: Node answers a request whose line and headers pass
 * 16 KiB with a bare 431 itself, so a longer query never reaches the service.
 */
const QUERY_VALUES = [...ODD_STRINGS, ...EDGE_NUMBERS].filter((v) => encode(v).length <= 8 * 1024);

/** A query string for one parameter: an odd value, an array (`a=1&a=2`), brackets (`a[b]=c`), bytes that are not UTF-8, empty. */
export const fuzzQuery = (name: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }).map((v) => `${name}=${encode(v)}`),
    fc.constantFrom(...QUERY_VALUES).map((v) => `${name}=${encode(v)}`),
    fc.constantFrom(
      `${name}=1&${name}=2`,
      `${name}[b]=c`,
      `${name}[]=x`,
      `${name}[__proto__][x]=1`,
      `${name}`,
      `${name}=`,
      `${name}=%`,
      `${name}=%00`,
      `${name}=%FF`,
      `${name}=a%ED%A0%80b`,
      `${name}=%C3`,
      `${name}=${'9'.repeat(400)}`,
    ),
    loneSurrogateString.map((v) => `${name}=${encode(v)}`),
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
 * keys, lone surrogates in keys, duplicate keys (the last wins, and is the odd one), over 1 MiB,
 * not JSON, JSON that is not an object.
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
    withRest('"\\ud800":1'),
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
    out.push(`{${rest ? rest + ',' : ''}"${field}":{"ok\\udfff":"\\ud800"}}`);
  }
  return out;
}
