import { Module, OnModuleInit } from '@nestjs/common';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { ActivityController } from './activity.controller';
import { ActivityService } from './activity.service';
import { CommentController } from './comment.controller';

@Module({
  controllers: [CommentController, ActivityController],
  providers: [ActivityService],
  exports: [ActivityService],
})
export class ActivityModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('comment', { notFound: 'Comment not found', sql: `SELECT workspace_id FROM activity WHERE id = $1 AND type = 'comment'` });
  }
}
