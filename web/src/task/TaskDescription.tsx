import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import type { Task } from '../api/types';
import { Markdown } from '../ui/Markdown';

/** What a toolbar button does to the selection: wrap it, or start each of its lines with a prefix. */
type Edit = { wrap: [string, string]; empty: string } | { prefix: string; empty: string };

const TOOLS: { name: string; text: string; edit: Edit }[] = [
  { name: 'Bold', text: 'B', edit: { wrap: ['**', '**'], empty: 'bold text' } },
  { name: 'Italic', text: 'I', edit: { wrap: ['_', '_'], empty: 'italic text' } },
  { name: 'Heading', text: 'H', edit: { prefix: '### ', empty: 'Heading' } },
  { name: 'Bulleted list', text: '•', edit: { prefix: '- ', empty: 'item' } },
  { name: 'Task list', text: '☐', edit: { prefix: '- [ ] ', empty: 'task' } },
  { name: 'Link', text: '🔗', edit: { wrap: ['[', '](https://)'], empty: 'link text' } },
  { name: 'Code', text: '</>', edit: { wrap: ['`', '`'], empty: 'code' } },
];

/** `text` with the edit applied to [start, end), and the new selection (the text that was selected, or the placeholder). */
export function applyEdit(text: string, start: number, end: number, edit: Edit): { text: string; start: number; end: number } {
  const selected = text.slice(start, end) || edit.empty;
  if ('wrap' in edit) {
    const [before, after] = edit.wrap;
    const out = text.slice(0, start) + before + selected + after + text.slice(end);
    return { text: out, start: start + before.length, end: start + before.length + selected.length };
  }
  // From the start of the first selected line.
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lines = (text.slice(lineStart, start) + selected).split('\n').map((l) => edit.prefix + l);
  const block = lines.join('\n');
  const out = text.slice(0, lineStart) + block + text.slice(end);
  return { text: out, start: lineStart, end: lineStart + block.length };
}

/**
 * A task's description: Markdown rendered safely (GitHub-flavoured). Those who may edit the task
 * edit it with a small toolbar and a preview, and tick its task-list boxes in place.
 */
export function TaskDescription({ task, editable, onSave, saving }: { task: Task; editable: boolean; onSave: (description: string) => void; saving?: boolean }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(task.description ?? '');
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const area = useRef<HTMLTextAreaElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const pendingSelection = useRef<[number, number] | null>(null);
  useEffect(() => {
    if (!editing) setText(task.description ?? '');
  }, [task.description, editing]);
  useEffect(() => {
    if (!editing && returnFocus.current) {
      returnFocus.current = false;
      editButton.current?.focus();
    }
  }, [editing]);
  useLayoutEffect(() => {
    const sel = pendingSelection.current;
    if (sel && area.current) {
      pendingSelection.current = null;
      area.current.focus();
      area.current.setSelectionRange(sel[0], sel[1]);
    }
  });

  const close = () => {
    returnFocus.current = true;
    setEditing(false);
    setTab('write');
  };
  const save = () => {
    if (text !== (task.description ?? '')) onSave(text);
    close();
  };
  const cancel = () => {
    setText(task.description ?? '');
    close();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      save();
    } else if (e.key === 'Escape') {
      // Cancels the edit only (the panel closes on Escape otherwise).
      e.preventDefault();
      e.stopPropagation();
      cancel();
    }
  };
  const apply = (edit: Edit) => {
    const el = area.current;
    if (!el) return;
    const next = applyEdit(text, el.selectionStart, el.selectionEnd, edit);
    pendingSelection.current = [next.start, next.end];
    setText(next.text);
  };

  return (
    <section aria-labelledby="desc-h">
      <h3 id="desc-h">
        Description{' '}
        {editable && !editing && (
          <button type="button" ref={editButton} className="link" onClick={() => setEditing(true)} aria-label="Edit description">
            Edit
          </button>
        )}
      </h3>
      {editing ? (
        <form
          className="stack md-editor"
          onKeyDown={onKeyDown}
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <Tabs selectedKey={tab} onSelectionChange={(k) => setTab(k === 'preview' ? 'preview' : 'write')}>
            <TabList aria-label="Description editor" className="md-tabs">
              <Tab id="write" className="md-tab">
                Write
              </Tab>
              <Tab id="preview" className="md-tab">
                Preview
              </Tab>
            </TabList>
            <TabPanel id="write" className="md-panel">
              <div role="toolbar" aria-label="Formatting" className="md-toolbar">
                {TOOLS.map((t) => (
                  <button key={t.name} type="button" className="md-tool" aria-label={t.name} title={t.name} onClick={() => apply(t.edit)}>
                    <span aria-hidden="true">{t.text}</span>
                  </button>
                ))}
              </div>
              <label>
                <span className="visually-hidden">Description (Markdown)</span>
                <textarea ref={area} value={text} onChange={(e) => setText(e.target.value)} rows={8} autoFocus />
              </label>
            </TabPanel>
            <TabPanel id="preview" className="md-panel description">
              {text.trim() ? <Markdown>{text}</Markdown> : <p className="state">Nothing to preview.</p>}
            </TabPanel>
          </Tabs>
          <p className="hint">Ctrl+Enter (⌘+Enter) saves, Escape cancels.</p>
          <div className="actions">
            <button type="submit">Save description</button>
            <button type="button" className="secondary" onClick={cancel}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="description">
          {task.description ? (
            <Markdown onChange={editable ? onSave : undefined} disabled={saving}>
              {task.description}
            </Markdown>
          ) : (
            <p className="state">No description.</p>
          )}
        </div>
      )}
    </section>
  );
}
