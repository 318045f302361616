import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationDataModule } from '../organization/organization-data.module';
import { NotificationController } from './notification.controller';
import { Notification } from './notification.entity';
import { NotificationRepository } from './notification.repository';
import { NotificationService } from './notification.service';

/** The API of a user's in-app notifications (docs/notifications.md); the worker writes them (./delivery). */
@Module({
  imports: [TypeOrmModule.forFeature([Notification]), OrganizationDataModule],
  controllers: [NotificationController],
  providers: [NotificationService, NotificationRepository],
})
export class NotificationsModule {}
