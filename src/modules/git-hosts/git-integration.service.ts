import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isForeignKeyViolation, isUniqueViolation } from '../../database/sql';
import { GitIntegrationRow, GitSource, GitWebhookIntegrationRow } from './git-integration.record';
import { ACTIVE_REPOSITORY_INDEX, GitIntegrationColumns, GitIntegrationRepository } from './git-integration.repository';

export const INTEGRATION_NOT_FOUND = 'Integration not found';
export const REPOSITORY_TAKEN = 'This repository is already linked to another active project';

/**
 * The settings rows of the git-host integrations, shared by selfgit and hostedgit: create or
 * replace in place, partial update, delete. A repository linked by another active integration
 * of the same type is a 409; a project deleted meanwhile a 404.
 */
@Injectable()
export class GitIntegrationService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly integrations: GitIntegrationRepository,
  ) {}

  find(workspaceId: string, projectId: string, type: GitSource): Promise<GitIntegrationRow | undefined> {
    return this.integrations.findInProject(workspaceId, projectId, type);
  }

  /** An integration by id alone, for its public inbound webhook (with the previous webhook secret while a rotation's overlap lasts). */
  findForWebhook(type: GitSource, id: string): Promise<GitWebhookIntegrationRow | undefined> {
    return this.integrations.findForWebhook(type, id);
  }

  /** The active integration of `type` linking the repository (`owner/name` for hostedgit, lower case). */
  findActiveByRepository(type: GitSource, repositoryKey: string): Promise<GitIntegrationRow | undefined> {
    return this.integrations.findActiveByRepository(type, repositoryKey);
  }

  claimImport(workspaceId: string, id: string): Promise<boolean> {
    return this.integrations.claimImport(workspaceId, id);
  }

  releaseImport(workspaceId: string, id: string): Promise<void> {
    return this.integrations.releaseImport(workspaceId, id);
  }

  /**
   * Creates the project's integration of that type, or replaces the existing one in place (same
   * id, createdAt and webhook secret). `newSecret` gives the webhook secret (ciphertext) of a new
   * row; a replaced row keeps its own.
   */
  replace(workspaceId: string, projectId: string, type: GitSource, values: GitIntegrationColumns, newSecret: () => string | null): Promise<GitIntegrationRow> {
    return this.write(async (m) => {
      for (let round = 0; round < 3; round++) {
        const current = await this.integrations.lockInProject(workspaceId, projectId, type, m);
        if (current) return (await this.integrations.update(workspaceId, current.id, values, m))!;
        const inserted = await this.integrations.insertIfAbsent(workspaceId, projectId, type, { ...values, webhook_secret: newSecret() }, m);
        if (inserted) return inserted;
      }
      throw new Error('The integration changed under three attempts in a row');
    });
  }

  /** Writes the fields given (undefined = unchanged); 404 when the project has no such integration. */
  update(workspaceId: string, projectId: string, type: GitSource, values: Partial<GitIntegrationColumns>): Promise<GitIntegrationRow> {
    return this.write(async (m) => {
      const current = await this.integrations.lockInProject(workspaceId, projectId, type, m);
      if (!current) throw new NotFoundException(INTEGRATION_NOT_FOUND);
      if (Object.values(values).every((v) => v === undefined)) return current;
      return (await this.integrations.update(workspaceId, current.id, values, m))!;
    });
  }

  /**
   * Gives the project's integration of that type a new webhook secret (`secret`: ciphertext); the
   * one it replaces stays accepted for the overlap. 404 when the project has no such integration.
   */
  rotateWebhookSecret(workspaceId: string, projectId: string, type: GitSource, secret: string): Promise<GitIntegrationRow> {
    return this.write(async (m) => {
      const current = await this.integrations.lockInProject(workspaceId, projectId, type, m);
      if (!current) throw new NotFoundException(INTEGRATION_NOT_FOUND);
      return (await this.integrations.rotateWebhookSecret(workspaceId, current.id, secret, m))!;
    });
  }

  async remove(workspaceId: string, projectId: string, type: GitSource): Promise<{ success: true }> {
    if (!(await this.integrations.deleteInProject(workspaceId, projectId, type))) throw new NotFoundException(INTEGRATION_NOT_FOUND);
    return { success: true };
  }

  private async write(fn: (m: EntityManager) => Promise<GitIntegrationRow>): Promise<GitIntegrationRow> {
    try {
      return await this.ds.transaction(fn);
    } catch (err) {
      if (isUniqueViolation(err, ACTIVE_REPOSITORY_INDEX)) throw new ConflictException(REPOSITORY_TAKEN);
      // The project was deleted between the permission check and the insert.
      if (isForeignKeyViolation(err)) throw new NotFoundException('Project not found');
      throw err;
    }
  }
}
