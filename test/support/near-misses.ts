/**
 * Near misses of an allowed origin, for the tests of every check that compares with one (the
 * session cookie's Origin check, CORS, the queue dashboard's Origin check, every callbackURL and
 * redirectTo): values that begin like the allowed origin, or name its host another way, and are
 * another origin or none. A check written as a prefix match (`startsWith`), a comparison of the
 * host alone, or one that ignores the port or the scheme lets at least one of them through.
 * Each entry is `[what it tries, the value]`.
 */
export function nearMissOrigins(origin: string): Array<[string, string]> {
  const u = new URL(origin);
  const port = u.port ? `:${u.port}` : '';
  return [
    ['another port', u.port ? `${origin}1` : `${origin}:8443`],
    ['a host below it', `${origin}.evil.test`],
    ['a host that goes on from it', `${origin}evil.test`],
    ['user info before another host', `${origin}@evil.test`],
    ['a path after it', `${origin}/`],
    ['another scheme', `${u.protocol === 'https:' ? 'http:' : 'https:'}//${u.host}`],
    ['its host with a trailing dot', `${u.protocol}//${u.hostname}.${port}`],
  ];
}

/**
 * Near misses of a URL on an allowed origin, as a callbackURL or redirectTo takes one: each on
 * another origin (the origin near misses with a path, and the allowed origin carried in the path
 * or the query of another origin's URL).
 */
export function nearMissUrls(origin: string): Array<[string, string]> {
  return [
    ...nearMissOrigins(origin)
      .filter(([what]) => what !== 'a path after it')
      .map(([what, o]): [string, string] => [what, `${o}/done`]),
    ['the allowed origin as the path of another', `https://evil.test/${origin}/done`],
    ['the allowed origin as the path of a scheme-relative URL', `//evil.test/${origin}/done`],
    ['the allowed origin in the query of another', `https://evil.test/done?next=${origin}/done`],
  ];
}
