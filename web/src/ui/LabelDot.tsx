/**
 * A label's colour as the API stores it (`#RRGGBB`, or a palette name that clients of the original
 * API send: docs/compatibility.md) turned into a `#rrggbb` the page and a colour input can use.
 * The palette is data the labels carry, not a theme colour: the text beside a dot stays var(--fg).
 */
const PALETTE: Record<string, string> = {
  gray: '#6b7280',
  'dark-gray': '#374151',
  purple: '#8b5cf6',
  teal: '#14b8a6',
  green: '#22c55e',
  yellow: '#eab308',
  orange: '#f97316',
  pink: '#ec4899',
  red: '#ef4444',
};

export const labelHex = (color: string): string => (PALETTE[color] ?? (/^#[0-9a-f]{6}$/i.test(color) ? color : PALETTE.gray!)).toLowerCase();

/** The label's colour as a dot (decorative: the label's name says what it is). */
export function LabelDot({ color }: { color: string }) {
  return <span className="label-dot" style={{ backgroundColor: labelHex(color) }} aria-hidden="true" />;
}

/** A label as a coloured dot and its name in the page's text colour, readable in either theme. */
export function LabelName({ name, color }: { name: string; color: string }) {
  return (
    <span className="label-name">
      <LabelDot color={color} />
      {name}
    </span>
  );
}
