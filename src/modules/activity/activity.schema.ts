import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IdProp, ObjectProp, TextProp, TimeProp } from '../../common/http/schema-props';
import { ActivityType } from './activity.record';

/** The activity types, in docs/records.md's order ("Activity"). */
export const ACTIVITY_TYPES = [
  'comment',
  'created',
  'status_changed',
  'priority_changed',
  'title_changed',
  'description_changed',
  'assignee_changed',
  'unassigned',
  'due_date_changed',
  'moved',
  'imported',
  'start_date_changed',
  'label_added',
  'label_removed',
  'relation_added',
  'relation_removed',
  'comment_edited',
  'comment_deleted',
  'time_entry_added',
  'time_entry_edited',
  'time_entry_deleted',
] as const satisfies readonly ActivityType[];

/** The OpenAPI schema of the Activity record, comments included (ActivityRecord; docs/records.md, "Activity"). */
@ApiSchema({ name: 'Activity' })
export class ActivityRecordSchema {
  @IdProp() id: string;
  @IdProp() taskId: string;
  @ApiProperty({ enum: [...ACTIVITY_TYPES] }) type: ActivityType;
  @TimeProp() createdAt: string;
  @IdProp({ nullable: true }) userId: string | null;
  @TextProp({ nullable: true }) content: string | null;
  @ObjectProp({ nullable: true, description: 'the old and new values (`{oldStatus, newStatus}`, …); null for comments' }) eventData: Record<string, unknown> | null;
  @TextProp({ nullable: true }) externalUserName: string | null;
  @TextProp({ nullable: true }) externalUserAvatar: string | null;
  @TextProp({ nullable: true }) externalSource: string | null;
  @TextProp({ nullable: true }) externalUrl: string | null;
}
