/**
 * What a label's color may be (docs/compatibility.md): `#RRGGBB`, or one of the palette names
 * that clients of the original API send, stored as given.
 */
export const LABEL_PALETTE = ['gray', 'dark-gray', 'purple', 'teal', 'green', 'yellow', 'orange', 'pink', 'red'] as const;

export const LABEL_COLOR = new RegExp(`^(#[0-9A-Fa-f]{6}|${LABEL_PALETTE.join('|')})$`);

export const LABEL_COLOR_MESSAGE = `color must be a hex color like #RRGGBB or one of ${LABEL_PALETTE.join(', ')}`;
