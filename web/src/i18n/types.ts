/** A catalog of one area of the app: message id → ICU MessageFormat text (docs/web.md, "Languages"). */
export type Catalog = Record<string, string>;

/** Another language's copy of an English catalog: every id, no other (a missing or extra id fails the type check). */
export type Translation<C extends Catalog> = { [K in keyof C]: string };
