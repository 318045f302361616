import type { Task } from '../api/types';
import { priorityName } from '../ui/format';
import { isOverdue } from './filters';

/** A task's priority (unless none) and due date (marked when overdue), as a card shows them. */
export function PriorityAndDue({ task }: { task: Task }) {
  const overdue = isOverdue(task);
  const due = task.dueDate ? new Date(task.dueDate.slice(0, 10) + 'T00:00:00').toLocaleDateString(undefined, { day: 'numeric', month: 'short' }) : null;
  return (
    <>
      {task.priority !== 'no-priority' && <span className={`chip priority-${task.priority}`}>{priorityName(task.priority)}</span>}
      {due && (
        <span className={`chip due${overdue ? ' overdue' : ''}`}>
          {overdue ? 'Overdue: ' : 'Due '}
          <time dateTime={task.dueDate!.slice(0, 10)}>{due}</time>
        </span>
      )}
    </>
  );
}
