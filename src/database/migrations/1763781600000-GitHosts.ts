import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The git-host integrations (selfgit, hostedgit: docs/git-hosts.md) and what they remember.
 *
 * - git_integration: one row per project and type. `repository_key` is the repository's identity in
 *   lower case (selfgit: base URL + owner/name; hostedgit: owner/name); the partial unique index
 *   lets only one ACTIVE integration link a repository. Secrets (`access_token`,
 *   `webhook_secret`) hold CryptoService ciphertext. `import_started_at` marks a running import,
 *   so two imports of one project never run at once.
 * - external_link: an issue, branch or pull request tied to a task. Its identity is the project
 *   that linked it, the source, the repository and the external id, so re-importing or a replayed
 *   webhook finds the task instead of creating another. `link_comment_*` records the one task-link
 *   comment posted on an issue (claimed before it is posted, so never twice).
 * - external_comment: which issue comments were copied as task comments (activity rows).
 * - git_webhook_receipt: inbound webhook deliveries already handled, by delivery id and by the
 *   SHA-256 of the body, so a replay changes nothing twice.
 */
export class GitHosts1763781600000 implements MigrationInterface {
  name = 'GitHosts1763781600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE git_integration (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES project(id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('selfgit', 'hostedgit')),
        is_active boolean NOT NULL DEFAULT true,
        base_url text,
        access_token text,
        webhook_secret text,
        repository_owner text NOT NULL,
        repository_name text NOT NULL,
        repository_key text NOT NULL,
        installation_id bigint,
        branch_pattern text NOT NULL DEFAULT '{slug}-{number}',
        comment_task_link boolean NOT NULL DEFAULT false,
        import_started_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT git_integration_project_type_key UNIQUE (project_id, type)
      )`);
    await q.query(`CREATE UNIQUE INDEX git_integration_active_repository_key ON git_integration (type, repository_key) WHERE is_active`);
    await q.query(`CREATE INDEX git_integration_workspace_idx ON git_integration (workspace_id)`);

    await q.query(`
      CREATE TABLE external_link (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES project(id) ON DELETE CASCADE,
        task_id uuid NOT NULL REFERENCES task(id) ON DELETE CASCADE,
        integration_id uuid REFERENCES git_integration(id) ON DELETE SET NULL,
        source text NOT NULL CHECK (source IN ('selfgit', 'hostedgit')),
        repository_key text NOT NULL,
        resource_type text NOT NULL CHECK (resource_type IN ('branch', 'pull_request', 'issue')),
        external_id text NOT NULL,
        url text,
        title text,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        link_comment_claimed_at timestamptz,
        link_comment_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT external_link_identity_key UNIQUE (project_id, source, repository_key, resource_type, external_id)
      )`);
    await q.query(`CREATE INDEX external_link_task_idx ON external_link (task_id)`);
    await q.query(`CREATE INDEX external_link_workspace_idx ON external_link (workspace_id)`);
    await q.query(`CREATE INDEX external_link_integration_idx ON external_link (integration_id)`);

    await q.query(`
      CREATE TABLE external_comment (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES project(id) ON DELETE CASCADE,
        activity_id uuid NOT NULL REFERENCES activity(id) ON DELETE CASCADE,
        source text NOT NULL CHECK (source IN ('selfgit', 'hostedgit')),
        repository_key text NOT NULL,
        external_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT external_comment_identity_key UNIQUE (project_id, source, repository_key, external_id)
      )`);
    await q.query(`CREATE INDEX external_comment_activity_idx ON external_comment (activity_id)`);
    await q.query(`CREATE INDEX external_comment_workspace_idx ON external_comment (workspace_id)`);

    await q.query(`
      CREATE TABLE git_webhook_receipt (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        receiver text NOT NULL,
        delivery_id text NOT NULL,
        body_sha256 text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT git_webhook_receipt_delivery_key UNIQUE (receiver, delivery_id),
        CONSTRAINT git_webhook_receipt_body_key UNIQUE (receiver, body_sha256)
      )`);
    await q.query(`CREATE INDEX git_webhook_receipt_received_idx ON git_webhook_receipt (received_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE git_webhook_receipt`);
    await q.query(`DROP TABLE external_comment`);
    await q.query(`DROP TABLE external_link`);
    await q.query(`DROP TABLE git_integration`);
  }
}
