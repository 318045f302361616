import { Injectable } from '@nestjs/common';
import { ExternalLinkRecord, toExternalLinkRecord } from './external-link.record';
import { ExternalLinkRepository } from './external-link.repository';

/** Reading a task's links to git hosts; the imports and webhooks write them (GitSyncService). */
@Injectable()
export class ExternalLinkService {
  constructor(private readonly links: ExternalLinkRepository) {}

  async listOfTask(workspaceId: string, taskId: string): Promise<ExternalLinkRecord[]> {
    return (await this.links.listOfTask(workspaceId, taskId)).map(toExternalLinkRecord);
  }
}
