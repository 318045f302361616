import { startTestApp, TestApp } from '../../support/app';

/**
 * A client session of the original API's family, replayed end to end (docs/compatibility.md):
 * the calls a command-line client and its live-server test script make, with the values they
 * send ("" to unassign, the projectId on every update, a generated 22-character project slug,
 * palette colors), through export, import into a second project, a bulk status change,
 * relations and comments. Each step must answer 200; a failure names the step.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

interface Step {
  status: number;
  body: any;
}

it('a session of an original-API client runs unchanged', async () => {
  const log: string[] = [];
  let token = '';
  /** One call of the client; it expects 200 like the client does. */
  const call = async (step: string, method: string, path: string, body?: unknown): Promise<any> => {
    const res: Step = await t.api.request(method, path, body, { token: token || undefined });
    log.push(`${res.status} ${method} ${path} (${step})`);
    if (res.status !== 200) throw new Error(`step "${step}" failed: ${res.status} ${JSON.stringify(res.body)}\n${log.join('\n')}`);
    return res.body;
  };

  // 1. What the server allows, then an account and its session.
  const config = await call('read the server config', 'GET', '/config');
  expect(config).toMatchObject({ disableRegistration: false, isDemoMode: false, version: expect.any(String) });
  const email = `cli-${Date.now()}@example.test`;
  const signUp = await call('sign up', 'POST', '/auth/sign-up/email', { name: 'CLI Tester', email, password: 'cli-password-123' });
  token = signUp.token;
  const me = (await call('who am I', 'GET', '/auth/get-session')).user;
  await call('set my name', 'POST', '/auth/update-user', { name: 'CLI Tester (renamed)' });

  // 2. A workspace and a project with the slug the client generates.
  const ws = await call('create a workspace', 'POST', '/auth/organization/create', { name: 'CLI Test Workspace', slug: `cli-ws-${Date.now()}` });
  await call('make it active', 'POST', '/auth/organization/set-active', { organizationId: ws.id });
  const slug = `cli-test-${Date.now()}`;
  const project = await call('create a project', 'POST', '/project', { name: 'CLI Test Project', workspaceId: ws.id, slug, description: 'made by the CLI test' });
  expect(project.slug).toBe(slug);
  expect((await call('list projects', 'GET', `/project?workspaceId=${ws.id}`)).map((p: any) => p.id)).toEqual([project.id]);
  const columns = await call('read the board', 'GET', `/column/${project.id}`);

  // 3. Tasks as the client sends them: empty strings for "none".
  const first = await call('create a task', 'POST', `/task/${project.id}`, {
    title: 'First CLI task',
    description: 'from the CLI',
    status: '',
    priority: 'high',
    userId: '',
    dueDate: '',
    startDate: '',
  });
  expect(first).toMatchObject({ status: columns[0].slug, userId: null, dueDate: null, number: 1 });
  const second = await call('create an assigned task', 'POST', `/task/${project.id}`, {
    title: 'Second CLI task',
    status: 'in-progress',
    priority: 'medium',
    userId: me.id,
    dueDate: '2030-06-01T00:00:00.000Z',
  });
  const third = await call('create a third task', 'POST', `/task/${project.id}`, { title: 'Third CLI task' });

  // 4. Updates carry the whole task back, projectId and position included.
  const fetched = await call('read a task', 'GET', `/task/${second.id}`);
  const updated = await call('update a task', 'PUT', `/task/${second.id}`, {
    projectId: fetched.projectId,
    title: 'Second CLI task (edited)',
    description: fetched.description,
    status: 'in-review',
    priority: fetched.priority,
    position: fetched.position,
    userId: fetched.userId,
    dueDate: fetched.dueDate,
    startDate: '',
  });
  expect(updated).toMatchObject({ title: 'Second CLI task (edited)', status: 'in-review', userId: me.id });
  expect((await call('unassign with ""', 'PUT', `/task/${second.id}`, { projectId: project.id, userId: '' })).userId).toBeNull();
  await call('assign again', 'PUT', `/task/assignee/${second.id}`, { userId: me.id });
  expect((await call('unassign through the assignee route', 'PUT', `/task/assignee/${second.id}`, { userId: '' })).userId).toBeNull();
  await call('clear the due date', 'PUT', `/task/due-date/${second.id}`, {});
  await call('change the status', 'PUT', `/task/status/${third.id}`, { status: 'done' });
  const page = await call('list tasks', 'GET', `/task/tasks/${project.id}?limit=50&page=1`);
  expect(page.pagination.total).toBe(3);

  // 5. Labels with palette colors; one detached without a body.
  const bug = await call('label a task', 'POST', '/label', { name: 'bug', color: 'red', workspaceId: ws.id, taskId: first.id });
  const docs = await call('label it again', 'POST', '/label', { name: 'docs', color: 'dark-gray', workspaceId: ws.id, taskId: first.id });
  await call('take a label off', 'DELETE', `/label/${docs.id}/task`);
  expect((await call("read the task's labels", 'GET', `/label/task/${first.id}`)).map((l: any) => l.id)).toEqual([bug.id]);

  // 6. Comments.
  const comment = await call('comment', 'POST', `/comment/${first.id}`, { content: 'Looks good from the CLI' });
  await call('edit the comment', 'PUT', `/comment/${comment.id}`, { content: 'Looks good from the CLI (edited)' });
  expect((await call('read the comments', 'GET', `/comment/${first.id}`)).map((c: any) => c.content)).toEqual(['Looks good from the CLI (edited)']);

  // 7. Export, and import into a second project.
  const exported = await call('export the tasks', 'GET', `/task/export/${project.id}`);
  expect(exported.project).toMatchObject({ name: 'CLI Test Project', slug });
  expect(exported.tasks.map((x: any) => x.title)).toEqual(['First CLI task', 'Second CLI task (edited)', 'Third CLI task']);
  const copy = await call('create a second project', 'POST', '/project', { name: 'CLI Import Target', workspaceId: ws.id, slug: `${slug}-copy` });
  const imported = await call('import the tasks', 'POST', `/task/import/${copy.id}`, { tasks: exported.tasks });
  expect(imported.results).toMatchObject({ total: 3, successful: 3, failed: 0 });
  const importedIds = imported.results.tasks.map((r: any) => r.task.id);
  expect((await call('labels came along', 'GET', `/label/task/${importedIds[0]}`)).map((l: any) => [l.name, l.color])).toEqual([['bug', 'red']]);

  // 8. A bulk status change on the imported tasks (one was done already).
  const bulk = await call('bulk status change', 'PATCH', '/task/bulk', { taskIds: importedIds, operation: 'updateStatus', value: 'done' });
  expect(bulk).toEqual({ success: true, updatedCount: 2 });
  expect((await call('bulk priority change', 'PATCH', '/task/bulk', { taskIds: importedIds, operation: 'updatePriority', value: 'low' })).updatedCount).toBe(3);

  // 9. Relations.
  const sub = await call('add a subtask', 'POST', '/task-relation', { sourceTaskId: first.id, targetTaskId: third.id, relationType: 'subtask' });
  await call('add a blocker', 'POST', '/task-relation', { sourceTaskId: second.id, targetTaskId: first.id, relationType: 'blocks' });
  const relations = await call('list relations', 'GET', `/task-relation/${first.id}`);
  expect(relations.map((r: any) => [r.relationType, r.sourceTask.title, r.targetTask.title])).toEqual([
    ['subtask', 'First CLI task', 'Third CLI task'],
    ['blocks', 'Second CLI task (edited)', 'First CLI task'],
  ]);
  await call('remove a relation', 'DELETE', `/task-relation/${sub.id}`);

  // 10. Project order and the public board.
  const order = await call('reorder projects', 'PUT', `/project/reorder?workspaceId=${ws.id}`, {
    projects: [
      { id: copy.id, position: 0 },
      { id: project.id, position: 1 },
    ],
  });
  expect(order.map((p: any) => p.id)).toEqual([copy.id, project.id]);
  await call('publish the project', 'PUT', `/project/${project.id}`, { isPublic: true });
  const board = await call('read the public board', 'GET', `/public-project/${project.id}`);
  expect(board.columns.flatMap((c: any) => c.tasks.map((x: any) => x.title)).sort()).toEqual(['First CLI task', 'Second CLI task (edited)', 'Third CLI task']);

  // 11. History and search, then clean up as the test script does.
  const history = await call('read the activity', 'GET', `/activity/${second.id}`);
  expect(history.map((a: any) => a.type)).toEqual(expect.arrayContaining(['created', 'title_changed', 'status_changed', 'unassigned']));
  expect((await call('read an imported task history', 'GET', `/activity/${importedIds[0]}`)).map((a: any) => a.type)).toEqual(['priority_changed', 'status_changed', 'imported']);
  const found = await call('search by key', 'GET', `/search?q=${slug}-1&type=tasks`);
  expect(found.tasks.map((x: any) => x.id)).toEqual([first.id]);
  await call('delete a task', 'DELETE', `/task/${third.id}`);
  await call('delete the copy', 'DELETE', `/project/${copy.id}`);
  await call('delete the project', 'DELETE', `/project/${project.id}`);
  await call('delete the account', 'POST', '/auth/delete-user', { password: 'cli-password-123' });
  const after = await t.api.get('/auth/get-session', token);
  expect(after.status).toBe(401);
});
