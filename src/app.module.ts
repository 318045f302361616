import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { CryptoModule } from './common/crypto/crypto.module';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter';
import { PermissionGuard } from './common/guards/permission.guard';
import { AccessModule } from './common/permissions/access.module';
import { createValidationPipe } from './common/pipes/validation';
import { dataSourceOptions } from './database/data-source-options';
import { AdminModule } from './modules/admin/admin.module';
import { AuthGuard } from './modules/auth/auth.guard';
import { AuthModule } from './modules/auth/auth.module';
import { ClientConfigModule } from './modules/client-config/client-config.module';
import { GitHostsModule } from './modules/git-hosts/git-hosts.module';
import { HealthModule } from './modules/health/health.module';
import { IntegrationsModule } from './modules/integrations/integrations.module';
import { NotificationPreferencesModule } from './modules/notification-preferences/notification-preferences.module';
import { NotificationsModule } from './modules/notifications/notifications.module';
import { OAuthModule } from './modules/oauth/oauth.module';
import { OrganizationModule } from './modules/organization/organization.module';
import { SearchModule } from './modules/search/search.module';
import { ActivityModule } from './modules/activity/activity.module';
import { ColumnModule } from './modules/column/column.module';
import { LabelModule } from './modules/label/label.module';
import { ProjectModule } from './modules/project/project.module';
import { TaskModule } from './modules/task/task.module';
import { TaskBulkModule } from './modules/task-bulk/task-bulk.module';
import { TaskRelationModule } from './modules/task-relation/task-relation.module';
import { AssetModule } from './modules/asset/asset.module';
import { TimeEntryModule } from './modules/time-entry/time-entry.module';
import { NetModule } from './common/net/net.module';
import { QueueModule } from './queue/queue.module';
import { LiveStreamsModule } from './redis/live-streams.module';
import { RedisModule } from './redis/redis.module';
import { EventsModule } from './modules/events/events.module';
import { WorkerModule } from './worker.module';

/** Feature modules serving the HTTP API (API role). Add new feature modules here; their worker side goes in WorkerModule. */
export const FEATURE_MODULES: Type[] = [
  AuthModule,
  OrganizationModule,
  HealthModule,
  ClientConfigModule,
  ProjectModule,
  ColumnModule,
  TaskModule,
  TaskRelationModule,
  AssetModule,
  TaskBulkModule,
  LabelModule,
  TimeEntryModule,
  ActivityModule,
  SearchModule,
  OAuthModule,
  IntegrationsModule,
  GitHostsModule,
  NotificationPreferencesModule,
  NotificationsModule,
  AdminModule,
  EventsModule,
];

/** What only the API role needs besides the feature modules: crypto, the permission lookups. */
const API_INFRASTRUCTURE: Type[] = [CryptoModule, AccessModule];

/**
 * The root module. Both roles share configuration, the database and the BullMQ root settings.
 * The API role adds the feature modules (controllers and their services) and the global HTTP
 * pipeline; the worker role adds WorkerModule (outbox relay, processors, email composers), whose
 * modules hold no controller, so a worker-only process registers no route and builds no controller.
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    const api = config.roles.includes('api');
    const worker = config.roles.includes('worker');
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot({ ...dataSourceOptions(config.databaseUrl, config.databasePoolSize), autoLoadEntities: true }),
        QueueModule,
        NetModule,
        LiveStreamsModule,
        // Both roles: the API's rate limits and OAuth states, the worker's notification burst windows.
        RedisModule,
        ...(api ? [...API_INFRASTRUCTURE, ...FEATURE_MODULES] : []),
        ...(worker ? [WorkerModule] : []),
      ],
      providers: api
        ? [
            { provide: APP_PIPE, useFactory: createValidationPipe },
            { provide: APP_FILTER, useClass: AllExceptionsFilter },
            { provide: APP_GUARD, useExisting: AuthGuard },
            { provide: APP_GUARD, useClass: PermissionGuard },
          ]
        : [],
    };
  }
}
