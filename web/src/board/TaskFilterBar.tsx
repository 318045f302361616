import { useId, useState, type FormEvent } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Popover } from 'react-aria-components';
import type { Column } from '../api/types';
import { useLabels, useMembers } from '../api/workspace-queries';
import { navigate } from '../app/router';
import { PRIORITIES, priorityName } from '../ui/format';
import { readStored, useStored, writeStored } from '../ui/stored';
import { DUE_FILTERS, filterCount, filtersQuery, hasFilters, parseFilters, TASK_SORTS, type TaskFilters } from './filters';
import { t } from '../i18n';

/** A view saved on this browser: a name and the filters' query string (docs/web.md, "Filters and views"). */
interface SavedView {
  name: string;
  query: string;
}
const viewsKey = (projectId: string) => `tandem.views.${projectId}`;
const cache = new Map<string, { raw: string | null; views: SavedView[] }>();
function readViews(projectId: string): SavedView[] {
  const raw = readStored(viewsKey(projectId));
  const hit = cache.get(projectId);
  if (hit && hit.raw === raw) return hit.views;
  let views: SavedView[] = [];
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (Array.isArray(parsed)) views = parsed.filter((v): v is SavedView => typeof v?.name === 'string' && typeof v?.query === 'string');
  } catch {
    views = [];
  }
  cache.set(projectId, { raw, views });
  return views;
}
const writeViews = (projectId: string, views: SavedView[]) => writeStored(viewsKey(projectId), JSON.stringify(views));
const useViews = (projectId: string) => useStored(() => readViews(projectId));

/**
 * The filters and order of a project's board or list, kept in the address so that a reload, a
 * shared link or a saved view shows the same tasks.
 */
export function TaskFilterBar(props: { workspaceId: string; projectId: string; basePath: string; filters: TaskFilters; columns?: Column[]; shown: number; total: number }) {
  const { filters: f } = props;
  const members = useMembers(props.workspaceId);
  const labels = useLabels(props.workspaceId);
  const views = useViews(props.projectId);
  const set = (patch: Partial<TaskFilters>) => navigate(props.basePath + filtersQuery(parseFilters({ ...f, ...patch })), true);
  const current = filtersQuery(f);
  // On a narrow screen the filters fold away behind "Filters (n)" (styles.css); wider, the button is not shown.
  const [unfolded, setUnfolded] = useState(false);
  const active = filterCount(f);
  const groupId = useId();
  return (
    <div className="filter-area">
      <button type="button" className="secondary filters-toggle" aria-expanded={unfolded} aria-controls={groupId} onClick={() => setUnfolded(!unfolded)}>
        {t('board.taskFilterBar.filters')}
        {active > 0 ? ` (${active})` : ''}
      </button>
      <div className="filters" role="group" aria-label={t('board.taskFilterBar.filters')} id={groupId} data-folded={!unfolded}>
        <label>
          {t('board.taskFilterBar.text')}
          <input type="search" value={f.q ?? ''} onChange={(e) => set({ q: e.target.value || undefined })} />
        </label>
        {props.columns && (
          <label>
            {t('board.taskFilterBar.status')}
            <select value={f.status ?? ''} onChange={(e) => set({ status: e.target.value || undefined })}>
              <option value="">{t('board.taskFilterBar.any')}</option>
              {props.columns.map((c) => (
                <option key={c.id} value={c.slug}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          {t('board.taskFilterBar.assigneeFilter')}
          <select value={f.assignee ?? ''} onChange={(e) => set({ assignee: e.target.value || undefined })}>
            <option value="">{t('board.taskFilterBar.anyone')}</option>
            <option value="none">{t('board.taskFilterBar.unassigned')}</option>
            {members.data?.map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.user?.name ?? m.userId}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('board.taskFilterBar.labelFilter')}
          <select value={f.label ?? ''} onChange={(e) => set({ label: e.target.value || undefined })}>
            <option value="">{t('board.taskFilterBar.any')}</option>
            {labels.data?.map((l) => (
              <option key={l.id} value={l.name}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('board.taskFilterBar.priorityFilter')}
          <select value={f.priority ?? ''} onChange={(e) => set({ priority: e.target.value || undefined })}>
            <option value="">{t('board.taskFilterBar.any')}</option>
            {[...PRIORITIES].reverse().map((p) => (
              <option key={p} value={p}>
                {priorityName(p)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('board.taskFilterBar.due')}
          <select value={f.due ?? ''} onChange={(e) => set({ due: (e.target.value || undefined) as TaskFilters['due'] })}>
            <option value="">{t('board.taskFilterBar.anyTime')}</option>
            {DUE_FILTERS.map((d) => (
              <option key={d} value={d}>
                {t(`board.taskFilterBar.due.${d}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('board.taskFilterBar.dueBy')}
          <input type="date" value={f.dueBy ?? ''} onChange={(e) => set({ dueBy: e.target.value || undefined })} />
        </label>
        <label>
          {t('board.taskFilterBar.sortBy')}
          <select value={f.sort ?? 'position'} onChange={(e) => set({ sort: e.target.value === 'position' ? undefined : (e.target.value as TaskFilters['sort']) })}>
            {TASK_SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`board.taskFilterBar.sort.${s}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="views-bar">
        <p className="state" aria-live="polite">
          {t('board.taskFilterBar.shownOf', { shown: props.shown, total: props.total })}
        </p>
        {hasFilters(f) && (
          <button type="button" className="secondary" onClick={() => navigate(props.basePath + filtersQuery({ sort: f.sort, span: f.span, at: f.at }), true)}>
            {t('board.taskFilterBar.clearFilters')}
          </button>
        )}
        <nav aria-label={t('board.taskFilterBar.savedViews')} className="views">
          {views.map((v) => (
            <span key={v.name} className={`view-chip${v.query === current ? ' active' : ''}`}>
              <a
                href={props.basePath + v.query}
                aria-current={v.query === current ? 'true' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  navigate(props.basePath + v.query);
                }}
              >
                {v.name}
              </a>
              <button
                type="button"
                className="view-remove"
                aria-label={t('board.taskFilterBar.deleteView', { name: v.name })}
                onClick={() =>
                  writeViews(
                    props.projectId,
                    views.filter((x) => x.name !== v.name),
                  )
                }
              >
                ×
              </button>
            </span>
          ))}
        </nav>
        <SaveView
          onSave={(name) =>
            writeViews(
              props.projectId,
              [...views.filter((v) => v.name !== name), { name, query: current }].sort((a, b) => a.name.localeCompare(b.name)),
            )
          }
        />
      </div>
    </div>
  );
}

function SaveView({ onSave }: { onSave: (name: string) => void }) {
  const [name, setName] = useState('');
  return (
    <DialogTrigger>
      <Button className="secondary">{t('board.taskFilterBar.saveView')}</Button>
      <Popover className="menu-popover" placement="bottom start">
        <Dialog className="dialog" aria-label={t('board.taskFilterBar.saveView')}>
          {({ close }) => (
            <form
              className="stack"
              onSubmit={(e: FormEvent) => {
                e.preventDefault();
                if (!name.trim()) return;
                onSave(name.trim());
                setName('');
                close();
              }}
            >
              <Heading slot="title" className="visually-hidden">
                {t('board.taskFilterBar.saveView')}
              </Heading>
              <label>
                {t('board.taskFilterBar.viewName')}
                <input value={name} onChange={(e) => setName(e.target.value)} maxLength={60} autoFocus />
              </label>
              <button type="submit" disabled={!name.trim()}>
                {t('board.taskFilterBar.save')}
              </button>
            </form>
          )}
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}
