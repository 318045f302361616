import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { deAreas } from './messages/de';
import { en, enAreas } from './messages/en';
import { resolveLanguage } from './resolve';

/**
 * The catalogs (docs/web.md, "Languages"): German has every English id and no other, each message
 * parses as ICU MessageFormat and uses the same arguments and tags in both languages, and every id
 * the app's code names exists.
 */
const WEB_SRC = join(__dirname, '..');

type Shape = Set<string>;
/** The arguments (with their kind) and tags a message uses, and the plural/select cases of each. */
function shape(elements: MessageFormatElement[], into: Shape = new Set()): Shape {
  for (const el of elements) {
    if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) into.add(`${TYPE[el.type]}:${el.value}`);
    else if (el.type === TYPE.tag) {
      into.add(`tag:${el.value}`);
      shape(el.children, into);
    } else if (el.type === TYPE.plural || el.type === TYPE.select) {
      into.add(`${TYPE[el.type]}:${el.value}`);
      for (const [key, option] of Object.entries(el.options)) {
        // Plural categories differ between languages (one/other, few/many); select keys must match.
        if (el.type === TYPE.select) into.add(`${el.value}=${key}`);
        shape(option.value, into);
      }
    }
  }
  return into;
}
const parsed = (text: string) => parse(text, { ignoreTag: false });

/** The app's source files, catalogs and specs left out. */
function sources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (!path.endsWith(join('i18n', 'messages'))) walk(path);
      } else if (/\.tsx?$/.test(name) && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts')) files.push(path);
    }
  };
  walk(WEB_SRC);
  return files;
}

describe('message catalogs', () => {
  it('German has exactly the ids of English, area by area', () => {
    for (const [area, messages] of Object.entries(enAreas)) {
      const de = deAreas[area as keyof typeof deAreas] as Record<string, string>;
      const missing = Object.keys(messages).filter((id) => !(id in de));
      const extra = Object.keys(de).filter((id) => !(id in messages));
      expect({ area, missing, extra }).toEqual({ area, missing: [], extra: [] });
    }
  });

  it('every id starts with its area and no area redefines another area’s id', () => {
    const seen = new Map<string, string>();
    for (const [area, messages] of Object.entries(enAreas)) {
      for (const id of Object.keys(messages)) {
        expect(`${area}: ${id}`).toMatch(new RegExp(`^${area}: ${area}\\.`));
        expect(seen.get(id)).toBeUndefined();
        seen.set(id, area);
      }
    }
  });

  it('every message parses, is not empty, and uses the same arguments and tags in both languages', () => {
    const de = Object.assign({}, ...Object.values(deAreas)) as Record<string, string>;
    for (const [id, text] of Object.entries(en as Record<string, string>)) {
      const translated = de[id]!;
      expect({ id, empty: !text.trim() || !translated.trim() }).toEqual({ id, empty: false });
      const a = [...shape(parsed(text))].sort();
      const b = [...shape(parsed(translated))].sort();
      expect({ id, arguments: b }).toEqual({ id, arguments: a });
    }
  });

  it('every id the app names in t() or tRich() is in the English catalog', () => {
    const unknown: string[] = [];
    let named = 0;
    for (const file of sources()) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\b(?:t|tRich|tr)\(\s*'([^']+)'/g)) {
        named++;
        if (!(m[1]! in en)) unknown.push(`${relative(WEB_SRC, file)}: ${m[1]}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(named).toBeGreaterThan(500);
  });

  it('every id is used by the app (literally, or under a prefix the app completes: `t(`x.${kind}`)`)', () => {
    const source = sources()
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const prefixes = [...source.matchAll(/\b(?:t|tRich|tr)\(\s*`([^`$]+)\$\{/g)].map((m) => m[1]!);
    const unused = Object.keys(en).filter((id) => !source.includes(`'${id}'`) && !prefixes.some((p) => id.startsWith(p)));
    expect(unused).toEqual([]);
  });
});

describe('resolveLanguage', () => {
  it('takes the chosen language, else the first of the browser’s the app has, else English', () => {
    expect(resolveLanguage(null, ['fr-FR', 'de-AT', 'en-US'])).toEqual({ language: 'de', formatLocale: 'de-AT' });
    expect(resolveLanguage(null, ['en-GB', 'de'])).toEqual({ language: 'en', formatLocale: 'en-GB' });
    expect(resolveLanguage(null, ['fr', 'ja'])).toEqual({ language: 'en', formatLocale: 'en' });
    expect(resolveLanguage(null, [])).toEqual({ language: 'en', formatLocale: 'en' });
    expect(resolveLanguage('de', ['en-US'])).toEqual({ language: 'de', formatLocale: 'de' });
    expect(resolveLanguage('en', ['de-CH', 'en-AU'])).toEqual({ language: 'en', formatLocale: 'en-AU' });
    // Something stored that the app does not have (an old choice, a hand edit) is ignored.
    expect(resolveLanguage('xx', ['de-DE'])).toEqual({ language: 'de', formatLocale: 'de-DE' });
  });
});
