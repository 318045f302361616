import type { Task } from '../api/types';
import { priorityName } from '../ui/format';
import { isOverdue } from './filters';
import { formatDate, tRich } from '../i18n';

/** A task's priority (unless none) and due date (marked when overdue), as a card shows them. */
export function PriorityAndDue({ task }: { task: Task }) {
  const overdue = isOverdue(task);
  const due = task.dueDate ? formatDate(task.dueDate.slice(0, 10) + 'T00:00:00', { day: 'numeric', month: 'short' }) : null;
  const dueTime = due && <time dateTime={task.dueDate!.slice(0, 10)}>{due}</time>;
  return (
    <>
      {task.priority !== 'no-priority' && <span className={`chip priority-${task.priority}`}>{priorityName(task.priority)}</span>}
      {due && (
        <span className={`chip due${overdue ? ' overdue' : ''}`}>
          {overdue ? tRich('views.taskChips.overdue', { date: dueTime }) : tRich('views.taskChips.due', { date: dueTime })}
        </span>
      )}
    </>
  );
}
