import { ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The task events an integration forwards (docs/integrations.md, "Events selection"): any subset
 * of the six kinds, each a boolean; members not sent keep their value (the defaults on create),
 * unknown members are refused. The schema of the OpenAPI document; IsEvents validates.
 */
export class EventsDto {
  @ApiPropertyOptional({ description: 'default true' }) taskCreated?: boolean;
  @ApiPropertyOptional({ description: 'default true' }) taskStatusChanged?: boolean;
  @ApiPropertyOptional({ description: 'default false' }) taskPriorityChanged?: boolean;
  @ApiPropertyOptional({ description: 'default false' }) taskTitleChanged?: boolean;
  @ApiPropertyOptional({ description: 'default false' }) taskDescriptionChanged?: boolean;
  @ApiPropertyOptional({ description: 'default true' }) taskCommentCreated?: boolean;
}
