import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import type { Task } from '../api/types';
import { Markdown } from '../ui/Markdown';
import { useImagePaste } from './image-paste';
import { useMentionPicker } from './mention-picker';
import { MarkdownTextarea } from './MarkdownTextarea';
import { PasteStatus } from './PasteStatus';
import { t as tr } from '../i18n';

/** What a toolbar button does to the selection: wrap it, or start each of its lines with a prefix. */
type Edit = { wrap: [string, string]; empty: string } | { prefix: string; empty: string };

const tools = (): { name: string; text: string; edit: Edit }[] => [
  { name: tr('task.taskDescription.tool.bold'), text: tr('task.taskDescription.tool.boldGlyph'), edit: { wrap: ['**', '**'], empty: tr('task.taskDescription.tool.boldEmpty') } },
  {
    name: tr('task.taskDescription.tool.italic'),
    text: tr('task.taskDescription.tool.italicGlyph'),
    edit: { wrap: ['_', '_'], empty: tr('task.taskDescription.tool.italicEmpty') },
  },
  {
    name: tr('task.taskDescription.tool.heading'),
    text: tr('task.taskDescription.tool.headingGlyph'),
    edit: { prefix: '### ', empty: tr('task.taskDescription.tool.headingEmpty') },
  },
  { name: tr('task.taskDescription.tool.bulleted'), text: '•', edit: { prefix: '- ', empty: tr('task.taskDescription.tool.bulletedEmpty') } },
  { name: tr('task.taskDescription.tool.taskList'), text: '☐', edit: { prefix: '- [ ] ', empty: tr('task.taskDescription.tool.taskListEmpty') } },
  { name: tr('task.taskDescription.tool.link'), text: '🔗', edit: { wrap: ['[', '](https://)'], empty: tr('task.taskDescription.tool.linkEmpty') } },
  { name: tr('task.taskDescription.tool.code'), text: '</>', edit: { wrap: ['`', '`'], empty: tr('task.taskDescription.tool.codeEmpty') } },
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
export function TaskDescription({
  workspaceId,
  task,
  editable,
  onSave,
  saving,
}: {
  workspaceId: string;
  task: Task;
  editable: boolean;
  onSave: (description: string) => void;
  saving?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(task.description ?? '');
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const area = useRef<HTMLTextAreaElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const pendingSelection = useRef<[number, number] | null>(null);
  const images = useImagePaste(task.id, 'description', area, setText);
  const mentions = useMentionPicker(workspaceId, area, setText);
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
        {tr('task.taskDescription.description')}{' '}
        {editable && !editing && (
          <button type="button" ref={editButton} className="link" onClick={() => setEditing(true)} aria-label={tr('task.taskDescription.editDescription')}>
            {tr('task.taskDescription.edit')}
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
            <TabList aria-label={tr('task.taskDescription.descriptionEditor')} className="md-tabs">
              <Tab id="write" className="md-tab">
                {tr('task.taskDescription.write')}
              </Tab>
              <Tab id="preview" className="md-tab">
                {tr('task.taskDescription.preview')}
              </Tab>
            </TabList>
            <TabPanel id="write" className="md-panel">
              <div role="toolbar" aria-label={tr('task.taskDescription.formatting')} className="md-toolbar">
                {tools().map((tool) => (
                  <button key={tool.name} type="button" className="md-tool" aria-label={tool.name} title={tool.name} onClick={() => apply(tool.edit)}>
                    <span aria-hidden="true">{tool.text}</span>
                  </button>
                ))}
              </div>
              <label className="mention-host">
                <span className="visually-hidden">{tr('task.taskDescription.descriptionMarkdown')}</span>
                <MarkdownTextarea area={area} value={text} onChange={setText} rows={8} autoFocus images={images} mentions={mentions} />
              </label>
              <PasteStatus uploading={images.uploading} error={images.error} />
            </TabPanel>
            <TabPanel id="preview" className="md-panel description">
              {text.trim() ? <Markdown>{text}</Markdown> : <p className="state">{tr('task.taskDescription.nothingToPreview')}</p>}
            </TabPanel>
          </Tabs>
          <p className="hint">{tr('task.taskDescription.ctrlEnterEnterSavesEscape')}</p>
          <div className="actions">
            <button type="submit">{tr('task.taskDescription.saveDescription')}</button>
            <button type="button" className="secondary" onClick={cancel}>
              {tr('common.cancel')}
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
            <p className="state">{tr('task.taskDescription.noDescription')}</p>
          )}
        </div>
      )}
    </section>
  );
}
