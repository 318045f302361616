import { Client } from 'pg';

/**
 * Adds a user to a workspace directly in the app's database. Only for tests that need a
 * member with a given role before the invitation flow is part of the scenario.
 */
export async function addMember(databaseUrl: string, workspaceId: string, userId: string, role: string): Promise<string> {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const r = await c.query(
      `INSERT INTO member (organization_id, user_id, role) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id, user_id) DO UPDATE SET role = EXCLUDED.role RETURNING id`,
      [workspaceId, userId, role],
    );
    return r.rows[0].id;
  } finally {
    await c.end();
  }
}

export async function sql<T = any>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return (await c.query(text, params)).rows;
  } finally {
    await c.end();
  }
}
