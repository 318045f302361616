import { ApiExtraModels, ApiSchema } from '@nestjs/swagger';
import { FlagProp, IdProp, NullableRefProp, IntProp, TextProp, TimeProp } from '../../common/http/schema-props';

/** The user behind a notification's change. */
@ApiSchema({ name: 'NotificationActor' })
export class NotificationActorSchema {
  @IdProp() id: string;
  @TextProp() name: string;
}

/** The OpenAPI schema of the Notification record (NotificationRecord; docs/records.md, "Notification"). */
@ApiSchema({ name: 'Notification' })
@ApiExtraModels(NotificationActorSchema)
export class NotificationRecordSchema {
  @IdProp() id: string;
  @TextProp() type: string;
  @TextProp() title: string;
  @TextProp() content: string;
  @FlagProp() isRead: boolean;
  @IdProp({ nullable: true }) taskId: string | null;
  @IdProp({ nullable: true }) projectId: string | null;
  @IdProp() workspaceId: string;
  @NullableRefProp(NotificationActorSchema, { description: 'null when no user is behind the change' }) actor: NotificationActorSchema | null;
  @TimeProp() createdAt: string;
}

/** The unread count `{count}`. */
@ApiSchema({ name: 'UnreadCount' })
export class UnreadCountSchema {
  @IntProp() count: number;
}
