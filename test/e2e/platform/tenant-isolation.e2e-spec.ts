import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { plantHostedgitLink } from '../../support/git-hosts';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/**
 * A user of another workspace must get 404 `<Thing> not found` for every kind of id of this one,
 * on every route, and nothing may change.
 */
describe('tenant isolation of work items', () => {
  it('answers 404 to a user of another workspace on every route and kind of id', async () => {
    const a = await ownerWithWorkspace(t);
    const project = await createProject(t, a.owner.token, a.workspaceId);
    const column = (await t.api.get(`/column/${project.id}`, a.owner.token)).body[0];
    const task = await createTask(t, a.owner.token, project.id, { title: 'Secret' });
    const label = (await t.api.post('/label', { name: 'Secret', color: '#123456', workspaceId: a.workspaceId, taskId: task.id }, a.owner.token)).body;
    const catalogue = (await t.api.get(`/label/workspace/${a.workspaceId}`, a.owner.token)).body[0];
    const entry = (await t.api.post('/time-entry', { taskId: task.id, startTime: '2025-01-01T00:00:00Z' }, a.owner.token)).body;
    const comment = (await t.api.post(`/comment/${task.id}`, { content: 'Secret' }, a.owner.token)).body;
    const sibling = await createTask(t, a.owner.token, project.id, { title: 'Sibling' });
    const relation = (await t.api.post('/task-relation', { sourceTaskId: task.id, targetTaskId: sibling.id, relationType: 'blocks' }, a.owner.token)).body;
    const hook = (await t.api.post(`/generic-webhook-integration/project/${project.id}`, { webhookUrl: 'https://hooks.example.com/a/secret-path' }, a.owner.token)).body;
    // Git-host integrations, written directly (creating a selfgit one through the API needs a git server).
    const [{ id: selfgit }] = await sql(
      t.databaseUrl,
      `INSERT INTO git_integration (workspace_id, project_id, type, base_url, repository_owner, repository_name, repository_key)
       VALUES ($1, $2, 'selfgit', 'https://git.example', 'a', 'r', 'https://git.example/a/r') RETURNING id`,
      [a.workspaceId, project.id],
    );
    await plantHostedgitLink(t.databaseUrl, a.workspaceId, project.id, 'a', 'r');
    const hosted = (await t.api.get(`/hostedgit-integration/project/${project.id}`, a.owner.token)).body;
    const rule = (await t.api.put(`/workflow-rule/${project.id}`, { integrationType: 'selfgit', eventType: 'pr_opened', columnId: column.id }, a.owner.token)).body;
    const [{ id: delivery }] = await sql(
      t.databaseUrl,
      `INSERT INTO delivery (workspace_id, project_id, event_id, event, target_type, target_id, payload, status)
       VALUES ($1, $2, gen_random_uuid(), 'task.created', 'generic-webhook', $3, '{}', 'failed') RETURNING id`,
      [a.workspaceId, project.id, hook.id],
    );

    // An in-app notification of A's owner, about A's task (as the worker writes them).
    const [{ id: note }] = await sql(
      t.databaseUrl,
      `INSERT INTO notification (workspace_id, user_id, event_id, type, title, content, task_id, project_id)
       VALUES ($1, $2, gen_random_uuid(), 'task.assigned', 'Secret', 'Secret', $3, $4) RETURNING id`,
      [a.workspaceId, a.owner.user.id, task.id, project.id],
    );

    const b = await ownerWithWorkspace(t);
    const bProject = await createProject(t, b.owner.token, b.workspaceId);
    const bTask = await createTask(t, b.owner.token, bProject.id);
    const bLabel = (await t.api.post('/label', { name: 'Mine', color: '#654321', workspaceId: b.workspaceId }, b.owner.token)).body;

    const W = 'Workspace not found';
    const P = 'Project not found';
    const C = 'Column not found';
    const T = 'Task not found';
    const L = 'Label not found';
    const E = 'Time entry not found';
    const M = 'Comment not found';
    const cases: [string, string, unknown, string, ('message' | 'error')?][] = [
      ['GET', `/project?workspaceId=${a.workspaceId}`, undefined, W],
      ['POST', '/project', { name: 'X', workspaceId: a.workspaceId }, W],
      ['GET', `/project/${project.id}`, undefined, P],
      ['PUT', `/project/${project.id}`, { name: 'X' }, P],
      ['PUT', `/project/${project.id}/archive`, undefined, P],
      ['PUT', `/project/${project.id}/unarchive`, undefined, P],
      ['DELETE', `/project/${project.id}`, undefined, P],
      ['GET', `/column/${project.id}`, undefined, P],
      ['POST', `/column/${project.id}`, { name: 'X' }, P],
      ['PUT', `/column/reorder/${project.id}`, { columns: [{ id: column.id, position: 5 }] }, P],
      ['PUT', `/column/${column.id}`, { name: 'X' }, C],
      ['DELETE', `/column/${column.id}`, undefined, C],
      ['POST', `/task/${project.id}`, { title: 'X' }, P],
      ['GET', `/task/tasks/${project.id}`, undefined, P],
      ['GET', `/task/card-details/${project.id}`, undefined, P],
      ['PUT', `/task/reorder/${project.id}`, { status: task.status, taskIds: [task.id] }, P],
      ['GET', `/task/${task.id}`, undefined, T],
      ['PUT', `/task/${task.id}`, { title: 'X' }, T],
      ['DELETE', `/task/${task.id}`, undefined, T],
      ['PUT', `/task/status/${task.id}`, { status: 'done' }, T],
      ['PUT', `/task/priority/${task.id}`, { priority: 'high' }, T],
      ['PUT', `/task/title/${task.id}`, { title: 'X' }, T],
      ['PUT', `/task/description/${task.id}`, { description: 'X' }, T],
      ['PUT', `/task/assignee/${task.id}`, { userId: null }, T],
      ['PUT', `/task/due-date/${task.id}`, { dueDate: null }, T],
      ['PUT', `/task/move/${task.id}`, { destinationProjectId: bProject.id }, T],
      ['PUT', `/task/move/${bTask.id}`, { destinationProjectId: project.id }, P],
      ['POST', '/label', { name: 'X', color: '#000000', workspaceId: a.workspaceId }, W],
      ['POST', '/label', { name: 'X', color: '#000000', workspaceId: b.workspaceId, taskId: task.id }, T],
      ['GET', `/label/workspace/${a.workspaceId}`, undefined, W],
      ['GET', `/label/task/${task.id}`, undefined, T],
      ['GET', `/label/${label.id}`, undefined, L],
      ['GET', `/label/${catalogue.id}`, undefined, L],
      ['GET', `/label/${catalogue.id}/tasks`, undefined, L],
      ['PUT', `/label/${catalogue.id}`, { name: 'X' }, L],
      ['DELETE', `/label/${catalogue.id}`, undefined, L],
      ['PUT', `/label/${catalogue.id}/task`, { taskId: bTask.id }, L],
      ['DELETE', `/label/${label.id}/task`, { taskId: task.id }, L],
      ['PUT', `/label/${bLabel.id}/task`, { taskId: task.id }, T],
      ['DELETE', `/label/${bLabel.id}/task`, { taskId: task.id }, T],
      ['POST', '/time-entry', { taskId: task.id, startTime: '2025-01-01T00:00:00Z' }, T],
      ['GET', `/time-entry/task/${task.id}`, undefined, T],
      ['GET', `/time-entry/${entry.id}`, undefined, E],
      ['PUT', `/time-entry/${entry.id}`, { description: 'X' }, E],
      ['DELETE', `/time-entry/${entry.id}`, undefined, E],
      ['GET', `/comment/${task.id}`, undefined, T],
      ['POST', `/comment/${task.id}`, { content: 'X' }, T],
      ['PUT', `/comment/${comment.id}`, { content: 'X' }, M],
      ['DELETE', `/comment/${comment.id}`, undefined, M],
      ['GET', `/activity/${task.id}`, undefined, T],
      ['POST', '/task-relation', { sourceTaskId: task.id, targetTaskId: sibling.id, relationType: 'related' }, T],
      ['POST', '/task-relation', { sourceTaskId: bTask.id, targetTaskId: task.id, relationType: 'related' }, T],
      ['GET', `/task-relation/${task.id}`, undefined, T],
      ['DELETE', `/task-relation/${relation.id}`, undefined, 'Task relation not found'],
      ['GET', `/task/export/${project.id}`, undefined, P],
      ['POST', `/task/import/${project.id}`, { tasks: [{ title: 'X', status: 'to-do' }] }, P],
      ...['updateStatus', 'updatePriority', 'updateAssignee', 'updateDueDate', 'removeLabel', 'delete'].map((operation): [string, string, unknown, string] => [
        'PATCH',
        '/task/bulk',
        {
          taskIds: [task.id],
          operation,
          value: { updateStatus: 'done', updatePriority: 'high', updateAssignee: null, updateDueDate: null, removeLabel: 'Secret', delete: undefined }[operation],
        },
        T,
      ]),
      // B's own task beside A's: one task B cannot see makes it all unseen.
      ['PATCH', '/task/bulk', { taskIds: [bTask.id, task.id], operation: 'updateStatus', value: 'done' }, T],
      ['PATCH', '/task/bulk', { taskIds: [bTask.id], operation: 'addLabel', value: catalogue.id }, L],
      // A's task moved by B into B's own project; B's task moved into A's project.
      ['PATCH', '/task/bulk', { taskIds: [task.id], operation: 'moveToProject', value: bTask.projectId }, T],
      ['PATCH', '/task/bulk', { taskIds: [bTask.id], operation: 'moveToProject', value: project.id }, P],
      ['PUT', `/project/reorder?workspaceId=${a.workspaceId}`, { projects: [{ id: project.id, position: 3 }] }, W],
      ...['messenger', 'teamchat', 'communitychat', 'generic-webhook'].flatMap((type): [string, string, unknown, string][] => [
        ['GET', `/${type}-integration/project/${project.id}`, undefined, P],
        ['POST', `/${type}-integration/project/${project.id}`, { webhookUrl: 'https://example.com/x' }, P],
        ['PATCH', `/${type}-integration/project/${project.id}`, { isActive: false }, P],
        ['DELETE', `/${type}-integration/project/${project.id}`, undefined, P],
        ['GET', `/${type}-integration/project/${project.id}/deliveries`, undefined, P],
        ['POST', `/${type}-integration/project/${project.id}/deliveries/${delivery}/redeliver`, undefined, P],
      ]),
      ['GET', `/selfgit-integration/project/${project.id}`, undefined, P],
      ['POST', `/selfgit-integration/project/${project.id}`, { baseUrl: 'https://git.example', accessToken: 't', repositoryOwner: 'a', repositoryName: 'r' }, P],
      ['PATCH', `/selfgit-integration/project/${project.id}`, { isActive: false }, P],
      ['DELETE', `/selfgit-integration/project/${project.id}`, undefined, P],
      ['POST', '/selfgit-integration/import-issues', { projectId: project.id }, P],
      ['POST', '/selfgit-integration/verify', { baseUrl: 'https://git.example', accessToken: 't', repositoryOwner: 'a', repositoryName: 'r', projectId: project.id }, P],
      ['GET', `/hostedgit-integration/project/${project.id}`, undefined, P],
      ['POST', `/hostedgit-integration/project/${project.id}`, { repositoryOwner: 'a', repositoryName: 'r' }, P],
      ['PATCH', `/hostedgit-integration/project/${project.id}`, { isActive: false }, P, 'error'],
      ['DELETE', `/hostedgit-integration/project/${project.id}`, undefined, P],
      ['GET', `/workflow-rule/${project.id}`, undefined, P],
      ['PUT', `/workflow-rule/${project.id}`, { integrationType: 'selfgit', eventType: 'pr_opened', columnId: column.id }, P],
      ['DELETE', `/workflow-rule/${rule.id}`, undefined, 'Workflow rule not found'],
      ['GET', `/external-link/task/${task.id}`, undefined, T],
      // B's own project, A's delivery: the delivery is not B's project's.
      ['POST', `/generic-webhook-integration/project/${bProject.id}/deliveries/${delivery}/redeliver`, undefined, 'Delivery not found'],
      ['GET', `/generic-webhook-integration/project/${bProject.id}/deliveries?before=${delivery}`, undefined, 'Delivery not found'],
      // Notification rules of a workspace B is not a member of; A's own notifications.
      ['PUT', `/notification-preferences/workspaces/${a.workspaceId}`, { isActive: false }, W],
      ['DELETE', `/notification-preferences/workspaces/${a.workspaceId}`, undefined, W],
      ['PATCH', `/notification/${note}/read`, undefined, 'Notification not found'],
      ['GET', `/notification?before=${note}`, undefined, 'Notification not found'],
    ];
    for (const [method, path, body, message, key = 'message'] of cases) {
      const res = await t.api.request(method, path, body, { token: b.owner.token });
      expect([method, path, res.status, res.body]).toEqual([method, path, 404, { [key]: message }]);
    }

    // A's project in B's own reorder is refused as any id that is not B's is (so it tells nothing).
    for (const id of [project.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await t.api.put(`/project/reorder?workspaceId=${b.workspaceId}`, { projects: [{ id, position: 3 }] }, b.owner.token);
      expect([res.status, res.body]).toEqual([400, { message: `Project ${id} does not belong to this workspace` }]);
    }

    // Nothing of workspace A changed.
    const [state] = await sql(
      t.databaseUrl,
      `SELECT (SELECT name FROM project WHERE id = $1) AS project,
              (SELECT name FROM board_column WHERE id = $2) AS column_name,
              (SELECT title || '/' || status FROM task WHERE id = $3) AS task,
              (SELECT name FROM label WHERE id = $4) AS label,
              (SELECT count(*)::int FROM time_entry WHERE id = $5) AS entries,
              (SELECT content FROM activity WHERE id = $6) AS comment,
              (SELECT count(*)::int FROM project WHERE workspace_id = $7) AS projects,
              (SELECT is_active::text || '/' || updated_at::text FROM integration WHERE id = $8) AS hook,
              (SELECT status FROM delivery WHERE id = $9) AS delivery,
              (SELECT count(*)::int FROM task_relation WHERE workspace_id = $7) AS relations,
              (SELECT string_agg(position::text, ',' ORDER BY position) FROM project WHERE workspace_id = $7) AS positions,
              (SELECT count(*)::int FROM label WHERE task_id = $3) AS task_labels,
              (SELECT is_read FROM notification WHERE id = $10) AS note_read,
              (SELECT count(*)::int FROM notification_rule) AS rules,
              (SELECT string_agg(type || '/' || is_active::text || '/' || updated_at::text, ',' ORDER BY type) FROM git_integration WHERE id IN ($11, $12)) AS git,
              (SELECT event_type || '/' || column_id FROM workflow_rule WHERE id = $13) AS workflow_rule`,
      [project.id, column.id, task.id, catalogue.id, entry.id, comment.id, a.workspaceId, hook.id, delivery, note, hosted.id, selfgit, rule.id],
    );
    expect(state).toEqual({
      project: project.name,
      column_name: 'To Do',
      task: 'Secret/to-do',
      label: 'Secret',
      entries: 1,
      comment: 'Secret',
      projects: 1,
      hook: expect.stringMatching(/^true\//),
      delivery: 'failed',
      relations: 1,
      positions: '0',
      task_labels: 1,
      note_read: false,
      rules: 0,
      git: expect.stringMatching(/^hostedgit\/true\/.*,selfgit\/true\//),
      workflow_rule: `pr_opened/${column.id}`,
    });
    expect((await t.api.get(`/hostedgit-integration/project/${project.id}`, a.owner.token)).body).toEqual(hosted);
    expect((await t.api.get(`/generic-webhook-integration/project/${project.id}`, a.owner.token)).body).toEqual(hook);
    expect((await t.api.get(`/task/${task.id}`, a.owner.token)).body).toEqual(task);
  });

  it('answers 404 to malformed ids the same way', async () => {
    const { owner } = await ownerWithWorkspace(t);
    for (const [path, message] of [
      ['/project/nope', 'Project not found'],
      ['/column/nope', 'Project not found'],
      ['/task/nope', 'Task not found'],
      ['/task/tasks/nope', 'Project not found'],
      ['/task/card-details/nope', 'Project not found'],
      ['/label/nope', 'Label not found'],
      ['/label/task/nope', 'Task not found'],
      ['/label/workspace/nope', 'Workspace not found'],
      ['/time-entry/nope', 'Time entry not found'],
      ['/time-entry/task/nope', 'Task not found'],
      ['/comment/nope', 'Task not found'],
      ['/activity/nope', 'Task not found'],
      ['/task-relation/nope', 'Task not found'],
      ['/messenger-integration/project/nope', 'Project not found'],
      ['/generic-webhook-integration/project/nope/deliveries', 'Project not found'],
      ['/selfgit-integration/project/nope', 'Project not found'],
      ['/hostedgit-integration/project/nope', 'Project not found'],
      ['/workflow-rule/nope', 'Project not found'],
      ['/external-link/task/nope', 'Task not found'],
    ]) {
      const res = await t.api.get(path, owner.token);
      expect([path, res.status, res.body]).toEqual([path, 404, { message }]);
    }
    expect((await t.api.put('/comment/nope', { content: 'x' }, owner.token)).body).toEqual({ message: 'Comment not found' });
    expect((await t.api.put('/column/nope', { name: 'x' }, owner.token)).body).toEqual({ message: 'Column not found' });
    expect((await t.api.patch('/notification/nope/read', {}, owner.token)).body).toEqual({ message: 'Notification not found' });
    expect((await t.api.put('/notification-preferences/workspaces/nope', {}, owner.token)).body).toEqual({ message: 'Workspace not found' });
    expect((await t.api.delete('/notification-preferences/workspaces/nope', owner.token)).body).toEqual({ message: 'Workspace not found' });
  });
});
