import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the task list filters (docs/compatibility.md, "Task lists and their filters"): a
 * project's tasks by due date, by start date, by assignee and by priority, and a person's tasks by due date
 * across projects (GET /task/mine). The last one also serves what `task_user_idx` served (a
 * person's tasks), which goes. Status uses `task_project_status_position_idx`, text the trigram
 * indexes of `task_text`, labels the label table's own.
 */
export class TaskFilterIndexes1763782800000 implements MigrationInterface {
  name = 'TaskFilterIndexes1763782800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX task_project_due_idx ON task (project_id, due_date)`);
    await q.query(`CREATE INDEX task_project_start_idx ON task (project_id, start_date)`);
    await q.query(`CREATE INDEX task_project_user_idx ON task (project_id, user_id)`);
    await q.query(`CREATE INDEX task_project_priority_idx ON task (project_id, priority)`);
    await q.query(`CREATE INDEX task_user_due_idx ON task (user_id, due_date) WHERE user_id IS NOT NULL`);
    await q.query(`DROP INDEX task_user_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX task_user_idx ON task (user_id) WHERE user_id IS NOT NULL`);
    await q.query(`DROP INDEX task_user_due_idx`);
    await q.query(`DROP INDEX task_project_priority_idx`);
    await q.query(`DROP INDEX task_project_user_idx`);
    await q.query(`DROP INDEX task_project_start_idx`);
    await q.query(`DROP INDEX task_project_due_idx`);
  }
}
