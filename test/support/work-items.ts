import { Auth } from './api';
import { TestApp } from './app';
import { addMember } from './fixtures';

/** A fresh user owning a fresh workspace. */
export async function ownerWithWorkspace(t: TestApp): Promise<{ owner: Auth; workspaceId: string }> {
  const owner = await t.api.signUp();
  const ws = await t.api.createWorkspace(owner.token);
  return { owner, workspaceId: ws.id };
}

/** A fresh user added to the workspace with `role`. */
export async function userWithRole(t: TestApp, workspaceId: string, role: string): Promise<Auth> {
  const u = await t.api.signUp();
  await addMember(t.databaseUrl, workspaceId, u.user.id, role);
  return u;
}

function must<T>(res: { status: number; text: string; body: T }, what: string): T {
  if (res.status !== 200) throw new Error(`${what} failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function createProject(t: TestApp, token: string, workspaceId: string, fields: Record<string, unknown> = {}) {
  return must(await t.api.post('/project', { name: `Project ${Math.random().toString(36).slice(2, 7)}`, workspaceId, ...fields }, token), 'create project');
}

export async function createTask(t: TestApp, token: string, projectId: string, fields: Record<string, unknown> = {}) {
  return must(await t.api.post(`/task/${projectId}`, { title: 'A task', ...fields }, token), 'create task');
}

export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** A fresh owner with a workspace, a project and one task on its board. */
export async function taskOnBoard(t: TestApp) {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  const task = await createTask(t, owner.token, project.id);
  return { owner, workspaceId, project, task };
}
