import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { AnswersJsonNull } from '../../common/http/json-null';
import { Id } from '../../common/pipes/id.pipe';
import { DeliveryLogService } from './delivery-log.service';
import { ListDeliveriesQuery } from './dto/deliveries.dto';
import { MessengerIntegrationDto, UpdateMessengerIntegrationDto } from './dto/integration.dto';
import { IntegrationService } from './integration.service';
import { DELIVERIES_ERRORS, GET_ERRORS, PROJECT, REDELIVER_ERRORS, REMOVE_ERRORS, UPDATE_ERRORS, WRITE_ERRORS } from './integration-routes';

@ApiTags('messenger-integration')
@ApiBearerAuth()
@Controller('messenger-integration/project/:projectId')
export class MessengerIntegrationController {
  constructor(
    private readonly integrations: IntegrationService,
    private readonly deliveries: DeliveryLogService,
  ) {}

  @Get()
  @AnswersJsonNull()
  @ApiAnswer('Messenger integration record, or null when the project has none')
  @RequirePermission('workspace', 'read', PROJECT)
  @ApiErrors(...GET_ERRORS)
  @ApiOperation({ summary: "The project's messenger integration" })
  get(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.integrations.get(scope.workspaceId, projectId, 'messenger');
  }

  @Post()
  @HttpCode(200)
  @ApiAnswer('Messenger integration record')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors([400, 'Enter a valid bot token', 'chatId is required', 'threadId must be at least 1', 'events.taskCreated must be a boolean value'], ...WRITE_ERRORS)
  @ApiOperation({ summary: "Create or replace the project's messenger integration (isActive true; omitted fields back to their defaults)" })
  replace(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: MessengerIntegrationDto) {
    return this.integrations.replace(scope.workspaceId, projectId, 'messenger', dto);
  }

  @Patch()
  @ApiAnswer('Messenger integration record')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors([400, 'Enter a valid bot token', 'threadId must be at least 1'], ...UPDATE_ERRORS)
  @ApiOperation({ summary: 'Change the fields sent; events merge into the stored ones; threadId/chatLabel null clear them' })
  update(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: UpdateMessengerIntegrationDto) {
    return this.integrations.update(scope.workspaceId, projectId, 'messenger', dto);
  }

  @Delete()
  @ApiAnswer('{success: true}')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...REMOVE_ERRORS)
  @ApiOperation({ summary: "Delete the project's messenger integration" })
  remove(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.integrations.remove(scope.workspaceId, projectId, 'messenger');
  }

  @Get('deliveries')
  @ApiAnswer('{deliveries: Delivery[]} (newest first)')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...DELIVERIES_ERRORS)
  @ApiOperation({ summary: 'The delivery log of the messenger integration, newest first; `before` pages on' })
  listDeliveries(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Query() q: ListDeliveriesQuery) {
    return this.deliveries.list(scope.workspaceId, projectId, 'messenger', q);
  }

  @Post('deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @ApiAnswer('Delivery (status pending)')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...REDELIVER_ERRORS)
  @ApiOperation({ summary: 'Deliver the same event again (same body and webhook-id)' })
  redeliver(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Param('deliveryId', Id('Delivery')) deliveryId: string) {
    return this.deliveries.redeliver(scope.workspaceId, projectId, 'messenger', deliveryId);
  }
}
