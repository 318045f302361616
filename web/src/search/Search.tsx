import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { api, must } from '../api/client';
import type { Project, SearchComment, Task } from '../api/types';
import { navigate } from '../app/router';
import { useProjects } from '../api/workspace-queries';
import { Empty, ErrorState, Loading } from '../ui/States';
import { notForShortcuts } from '../shell/Shortcuts';
import { t } from '../i18n';

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** The "Search" button of the top bar, and Ctrl-K (⌘K) or `/` from anywhere: each opens the search dialog. */
export function SearchButton({ workspaceId }: { workspaceId: string | null }) {
  const [open, setOpen] = useState(false);
  const returnTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') || (e.key === '/' && !notForShortcuts(e))) {
        e.preventDefault();
        if (!open) {
          returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          setOpen(true);
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <>
      <button
        type="button"
        className="search-button"
        aria-keyshortcuts="Control+K Meta+K /"
        onClick={(e) => {
          returnTo.current = e.currentTarget;
          setOpen(true);
        }}
      >
        <span className="search-label">{t('people.search.search')}</span>{' '}
        <kbd aria-hidden="true" className="shortcut">
          {MAC ? t('people.search.k') : t('people.search.ctrlK')}
        </kbd>
      </button>
      {open && (
        <SearchDialog
          workspaceId={workspaceId}
          onClose={(opened) => {
            setOpen(false);
            // Opening a result goes to its page, which places the focus; closing returns it.
            if (!opened) returnTo.current?.focus();
          }}
        />
      )}
    </>
  );
}

/** The words typed, once they have stayed the same for `ms`. */
function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

type Hit = { kind: 'task'; task: Task } | { kind: 'comment'; comment: SearchComment } | { kind: 'project'; project: Project };

const GROUPS = [
  {
    kind: 'task',
    get label() {
      return t('people.search.group.task');
    },
  },
  {
    kind: 'comment',
    get label() {
      return t('people.search.group.comment');
    },
  },
  {
    kind: 'project',
    get label() {
      return t('people.search.group.project');
    },
  },
] as const;

/**
 * A modal dialog with a combobox: GET /api/search (docs/api.md) in the workspace, its answer
 * grouped by kind; arrows move among the results, Enter opens one, Escape closes. A task key
 * (`MILL-2`) is answered first by the API, so Enter opens that task.
 */
function SearchDialog({ workspaceId, onClose: done }: { workspaceId: string | null; onClose: (opened: boolean) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  // Closed first: while the modal is open, the rest of the page is inert and cannot take the focus.
  const onClose = (opened: boolean) => {
    ref.current?.close();
    done(opened);
  };
  const id = useId();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [enterPending, setEnterPending] = useState(false);
  const [openError, setOpenError] = useState<unknown>(null);
  const input = useRef<HTMLInputElement>(null);
  const q = useDebounced(text.trim(), 200);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    input.current?.focus();
    return () => dialog?.close();
  }, []);

  const search = useQuery({
    queryKey: ['search', workspaceId, q],
    queryFn: async () => must(await api.GET('/api/search', { params: { query: { q, workspaceId: workspaceId!, limit: 10 } } })),
    enabled: !!workspaceId && q.length > 0,
    staleTime: 5_000,
  });
  // The projects' keys (MILL in MILL-2), from the list the workspace page shows too.
  const projects = useProjects(workspaceId);
  const slugOf = (projectId: string) => projects.data?.find((p) => p.id === projectId)?.slug;

  const hits: Hit[] = search.data
    ? [
        ...search.data.tasks.map((task) => ({ kind: 'task' as const, task })),
        ...search.data.comments.map((comment) => ({ kind: 'comment' as const, comment })),
        ...search.data.projects.map((project) => ({ kind: 'project' as const, project })),
      ]
    : [];
  // The answer shown is for the words typed (not for ones being replaced).
  const current = text.trim() === q && !search.isFetching;

  const open = async (hit: Hit) => {
    if (!workspaceId) return;
    if (hit.kind === 'task') navigate(`/w/${workspaceId}/p/${hit.task.projectId}/t/${hit.task.id}`);
    else if (hit.kind === 'project') navigate(`/w/${workspaceId}/p/${hit.project.id}`);
    else {
      // A comment names its task only: the task says its project.
      try {
        const task = must(await api.GET('/api/task/{id}', { params: { path: { id: hit.comment.taskId } } }));
        navigate(`/w/${workspaceId}/p/${task.projectId}/t/${task.id}`);
      } catch (err) {
        setOpenError(err);
        return;
      }
    }
    onClose(true);
  };

  // Enter pressed before the answer came: open the first result once it does.
  useEffect(() => {
    if (!enterPending || !current) return;
    setEnterPending(false);
    const hit = hits[active];
    if (hit) void open(hit);
  });

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (hits.length) setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : hits.length - 1)) % hits.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (current) {
        const hit = hits[active];
        if (hit) void open(hit);
      } else if (text.trim()) setEnterPending(true);
    } else if (e.key === 'Escape') {
      // Not on to the task panel's own Escape.
      e.preventDefault();
      e.stopPropagation();
      onClose(false);
    }
  };

  useEffect(() => {
    document.getElementById(`${id}-opt-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, id]);

  const optionId = (i: number) => `${id}-opt-${i}`;
  let index = -1;
  return (
    <dialog
      ref={ref}
      className="search-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault();
        onClose(false);
      }}
      onClick={(e) => e.target === ref.current && onClose(false)}
    >
      <h2 id={`${id}-title`} className="visually-hidden">
        {t('people.search.search')}
      </h2>
      <input
        type="search"
        role="combobox"
        aria-label={t('people.search.searchTasksCommentsAndProjects')}
        aria-expanded={hits.length > 0}
        aria-controls={`${id}-results`}
        aria-autocomplete="list"
        aria-activedescendant={hits.length ? optionId(active) : undefined}
        placeholder={t('people.search.searchOrATaskKey')}
        value={text}
        ref={input}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <div className="search-body">
        {!workspaceId && <Empty>{t('people.search.openOrCreateAWorkspace')}</Empty>}
        {workspaceId && !text.trim() && <p className="state hint">{t('people.search.typeAWordOrA')}</p>}
        {search.isFetching && text.trim() && <Loading what={t('people.search.results')} />}
        {search.error && <ErrorState error={search.error} />}
        {openError !== null && <ErrorState error={openError} />}
        {current && search.data && hits.length === 0 && <Empty>{t('people.search.nothingFound', { q })}</Empty>}
        <div id={`${id}-results`} role="listbox" aria-label={t('people.search.results2')} className="search-results" hidden={hits.length === 0}>
          {GROUPS.map(({ kind, label }) => {
            const group = hits.filter((h) => h.kind === kind);
            if (!group.length) return null;
            return (
              <div role="group" aria-label={label} key={kind}>
                <div className="group-label" aria-hidden="true">
                  {label}
                </div>
                {group.map((hit) => {
                  index++;
                  const i = index;
                  return (
                    <div
                      key={hitKey(hit)}
                      id={optionId(i)}
                      role="option"
                      aria-selected={i === active}
                      className="search-option"
                      onMouseDown={(e) => e.preventDefault()}
                      onMouseMove={() => i !== active && setActive(i)}
                      onClick={() => void open(hit)}
                    >
                      {hit.kind === 'task' && (
                        <>
                          <span className="key">
                            {slugOf(hit.task.projectId) ?? ''}-{hit.task.number}
                          </span>{' '}
                          {hit.task.title}
                        </>
                      )}
                      {hit.kind === 'comment' && <span className="snippet">{hit.comment.content}</span>}
                      {hit.kind === 'project' && (
                        <>
                          <span className="key">{hit.project.slug}</span> {hit.project.name}
                        </>
                      )}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
    </dialog>
  );
}

const hitKey = (hit: Hit) => (hit.kind === 'task' ? `t${hit.task.id}` : hit.kind === 'comment' ? `c${hit.comment.id}` : `p${hit.project.id}`);
