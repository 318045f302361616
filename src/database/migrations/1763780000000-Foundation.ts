import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1763780000000 implements MigrationInterface {
  name = 'Foundation1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pgcrypto`);
    await q.query(`
      CREATE TABLE "user" (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        email text NOT NULL,
        email_verified boolean NOT NULL DEFAULT false,
        image text,
        password_hash text,
        is_instance_admin boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT user_email_lower CHECK (email = lower(email))
      )`);
    await q.query(`CREATE UNIQUE INDEX user_email_key ON "user" (email)`);

    await q.query(`
      CREATE TABLE workspace (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        slug text NOT NULL,
        logo text,
        metadata text,
        description text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX workspace_slug_key ON workspace (slug)`);

    await q.query(`
      CREATE TABLE session (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        active_organization_id uuid REFERENCES workspace(id) ON DELETE SET NULL,
        ip_address text,
        user_agent text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX session_user_idx ON session (user_id)`);

    await q.query(`
      CREATE TABLE api_key (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        name text,
        start text NOT NULL,
        key_hash text NOT NULL,
        permissions jsonb,
        expires_at timestamptz,
        last_used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX api_key_hash_key ON api_key (key_hash)`);
    await q.query(`CREATE INDEX api_key_user_idx ON api_key (user_id)`);

    await q.query(`
      CREATE TABLE member (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        role text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX member_org_user_key ON member (organization_id, user_id)`);
    await q.query(`CREATE INDEX member_user_idx ON member (user_id)`);

    await q.query(`
      CREATE TABLE team (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX team_org_idx ON team (organization_id)`);

    await q.query(`
      CREATE TABLE team_member (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES team(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX team_member_key ON team_member (team_id, user_id)`);

    await q.query(`
      CREATE TABLE invitation (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','accepted','rejected','canceled')),
        inviter_id uuid REFERENCES "user"(id) ON DELETE SET NULL,
        team_id uuid REFERENCES team(id) ON DELETE SET NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX invitation_org_idx ON invitation (organization_id)`);
    await q.query(`CREATE INDEX invitation_email_idx ON invitation (email)`);

    await q.query(`
      CREATE TABLE organization_role (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        role text NOT NULL,
        permission jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX organization_role_key ON organization_role (organization_id, role)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['organization_role', 'invitation', 'team_member', 'team', 'member', 'api_key', 'session', 'workspace', '"user"']) {
      await q.query(`DROP TABLE IF EXISTS ${t} CASCADE`);
    }
  }
}
