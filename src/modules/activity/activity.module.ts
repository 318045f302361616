import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { AssetModule } from '../asset/asset.module';
import { TaskModule } from '../task/task.module';
import { ActivityController } from './activity.controller';
import { Activity } from './activity.entity';
import { ActivityRepository, COMMENT_SCOPE_SQL } from './activity.repository';
import { ActivityService } from './activity.service';
import { CommentController } from './comment.controller';
import { LegacyCommentController } from './legacy-comment.controller';

@Module({
  imports: [TypeOrmModule.forFeature([Activity]), TaskModule, AssetModule],
  controllers: [CommentController, LegacyCommentController, ActivityController],
  providers: [ActivityService, ActivityRepository],
  exports: [ActivityService],
})
export class ActivityModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('comment', { notFound: 'Comment not found', sql: COMMENT_SCOPE_SQL });
  }
}
