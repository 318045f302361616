import { useEffect, useState } from 'react';
import Markdown from 'react-markdown';
import type { Task } from '../api/types';

/** A task's description: Markdown, rendered safely; those who may edit the task edit it. */
export function TaskDescription({ task, editable, onSave }: { task: Task; editable: boolean; onSave: (description: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(task.description ?? '');
  useEffect(() => setText(task.description ?? ''), [task.description]);
  return (
    <section aria-labelledby="desc-h">
      <h3 id="desc-h">
        Description{' '}
        {editable && !editing && (
          <button type="button" className="link" onClick={() => setEditing(true)} aria-label="Edit description">
            Edit
          </button>
        )}
      </h3>
      {editing ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            onSave(text);
            setEditing(false);
          }}
        >
          <label>
            <span className="visually-hidden">Description (Markdown)</span>
            <textarea value={text} onChange={(e) => setText(e.target.value)} rows={6} />
          </label>
          <button type="submit">Save description</button>
        </form>
      ) : (
        // Markdown rendered to elements, never to HTML strings: raw HTML in a description is shown as text, and unsafe link URLs are dropped.
        <div className="description">{task.description ? <Markdown>{task.description}</Markdown> : <p className="state">No description.</p>}</div>
      )}
    </section>
  );
}
