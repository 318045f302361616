import { Module } from '@nestjs/common';
import { OrganizationDataModule } from '../organization/organization-data.module';
import { ProjectModule } from '../project/project.module';
import { NotificationPreferencesController } from './notification-preferences.controller';
import { NotificationPreferencesDataModule } from './notification-preferences-data.module';
import { NotificationPreferencesService } from './notification-preferences.service';

/** The API of a user's notification preferences and workspace rules (docs/notifications.md). */
@Module({
  imports: [NotificationPreferencesDataModule, OrganizationDataModule, ProjectModule],
  controllers: [NotificationPreferencesController],
  providers: [NotificationPreferencesService],
})
export class NotificationPreferencesModule {}
