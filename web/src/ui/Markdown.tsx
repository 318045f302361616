import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { t } from '../i18n';

// Markdown is rendered to React elements, never to an HTML string: raw HTML in the text is shown as
// text (react-markdown without rehype-raw), and link or image URLs with an unsafe scheme
// (`javascript:`, `data:`, …) are emptied by react-markdown's URL check; a link left without a URL
// is rendered as plain text, not as a link.

interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  position?: { start: { offset?: number } };
  children?: HastNode[];
}

const hasClass = (node: HastNode, name: string) => {
  const c = node.properties?.className;
  return Array.isArray(c) ? c.includes(name) : c === name;
};

/** The text of a task-list item, without its nested lists (the name of its checkbox). */
function itemText(node: HastNode): string {
  if (node.type === 'text') return node.value ?? '';
  if (node.tagName === 'ul' || node.tagName === 'ol') return '';
  return (node.children ?? []).map(itemText).join('');
}

/**
 * A rehype step: each task-list checkbox gets the offset in the source of its list item (to find its
 * `[ ]` or `[x]` when ticked) and the item's text as its accessible name.
 */
function rehypeTaskItems() {
  return (tree: HastNode) => {
    const walk = (node: HastNode) => {
      if (node.tagName === 'li' && hasClass(node, 'task-list-item')) {
        const box = findCheckbox(node);
        if (box) {
          box.properties = { ...box.properties, dataTaskOffset: String(node.position?.start.offset ?? -1), ariaLabel: itemText(node).trim() || t('common.checklistItem') };
        }
      }
      node.children?.forEach(walk);
    };
    walk(tree);
  };
}

function findCheckbox(node: HastNode): HastNode | undefined {
  for (const child of node.children ?? []) {
    if (child.tagName === 'ul' || child.tagName === 'ol') continue;
    if (child.tagName === 'input' && child.properties?.type === 'checkbox') return child;
    const inner = findCheckbox(child);
    if (inner) return inner;
  }
  return undefined;
}

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: Record<string, unknown>;
}

const MENTION_OPEN = /^<(kaneo-)?mention\b[^>]*?\bid\s*=\s*["']([0-9a-fA-F-]{36})["'][^>]*>$/;
const MENTION_CLOSE = /^<\/(kaneo-)?mention\s*>$/;

/**
 * A remark step: each mention (`<mention id="…">Name</mention>`, or the original service's
 * `<kaneo-mention …>`, docs/notifications.md, "Mentions") becomes `@Name` in a span of class
 * `mention`, instead of showing its markup as text. Other HTML stays text.
 */
function remarkMentions() {
  const name = (nodes: MdNode[]): string => nodes.map((n) => n.value ?? (n.children ? name(n.children) : '')).join('');
  return (tree: MdNode) => {
    const walk = (node: MdNode) => {
      const kids = node.children;
      if (!kids) return;
      for (let i = 0; i < kids.length; i++) {
        const open = kids[i]!.type === 'html' ? MENTION_OPEN.exec(kids[i]!.value ?? '') : null;
        if (!open) continue;
        const end = kids.findIndex((k, j) => j > i && k.type === 'html' && MENTION_CLOSE.test(k.value ?? ''));
        if (end < 0) continue;
        const label =
          name(kids.slice(i + 1, end))
            .trim()
            .replace(/^@/, '') || t('common.someone');
        const mention: MdNode = {
          type: 'emphasis',
          data: { hName: 'span', hProperties: { className: ['mention'], dataUserId: open[2]!.toLowerCase() } },
          children: [{ type: 'text', value: `@${label}` }],
        };
        kids.splice(i, end - i + 1, mention);
      }
      kids.forEach(walk);
    };
    walk(tree);
  };
}

/** `source` with the task-list box of the item starting at `offset` set to `checked`; unchanged when none is there. */
export function setTaskItem(source: string, offset: number, checked: boolean): string {
  if (offset < 0) return source;
  const match = /\[[ xX]\]/.exec(source.slice(offset));
  if (!match) return source;
  const at = offset + match.index;
  return source.slice(0, at) + (checked ? '[x]' : '[ ]') + source.slice(at + 3);
}

/**
 * GitHub-flavoured Markdown (tables, task lists, strikethrough, autolinks), rendered safely.
 * With `onChange`, task-list boxes can be ticked: it is called with the source, that box rewritten.
 */
export function Markdown({ children, onChange, disabled }: { children: string; onChange?: (source: string) => void; disabled?: boolean }) {
  const components: Components = {
    a: ({ href, children: text }) =>
      href ? (
        <a href={href} rel="noopener noreferrer nofollow">
          {text}
        </a>
      ) : (
        <span>{text}</span>
      ),
    // Images of the task's own files (`/api/asset/<id>`, also as the original service wrote them) load with the session cookie.
    img: ({ src, alt }) => (typeof src === 'string' && src ? <img src={src} alt={alt ?? ''} loading="lazy" className="md-image" /> : null),
    input: (props) => {
      if (props.type !== 'checkbox') return <input type={props.type} disabled />;
      const offset = Number((props as Record<string, unknown>)['data-task-offset'] ?? -1);
      const label = props['aria-label'];
      if (!onChange) return <input type="checkbox" checked={!!props.checked} aria-label={label} disabled readOnly />;
      return <input type="checkbox" checked={!!props.checked} aria-label={label} disabled={disabled} onChange={(e) => onChange(setTaskItem(children, offset, e.target.checked))} />;
    },
  };
  return (
    <ReactMarkdown remarkPlugins={[remarkGfm, remarkMentions]} rehypePlugins={[rehypeTaskItems]} components={components}>
      {children}
    </ReactMarkdown>
  );
}
