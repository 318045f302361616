import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { AnswersJsonNull } from '../../common/http/json-null';
import { Id } from '../../common/pipes/id.pipe';
import { DeliveryLogService } from './delivery-log.service';
import { ListDeliveriesQuery } from './dto/deliveries.dto';
import { ChatWebhookIntegrationDto, UpdateChatWebhookIntegrationDto } from './dto/integration.dto';
import { IntegrationService } from './integration.service';
import { DELIVERIES_ERRORS, GET_ERRORS, PROJECT, REDELIVER_ERRORS, REMOVE_ERRORS, UPDATE_ERRORS, WEBHOOK_400, WRITE_ERRORS } from './integration-routes';

@ApiTags('communitychat-integration')
@ApiBearerAuth()
@Controller('communitychat-integration/project/:projectId')
export class CommunitychatIntegrationController {
  constructor(
    private readonly integrations: IntegrationService,
    private readonly deliveries: DeliveryLogService,
  ) {}

  @Get()
  @AnswersJsonNull()
  @ApiAnswer('Communitychat integration record, or null when the project has none')
  @RequirePermission('workspace', 'read', PROJECT)
  @ApiErrors(...GET_ERRORS)
  @ApiOperation({ summary: "The project's communitychat integration" })
  get(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.integrations.get(scope.workspaceId, projectId, 'communitychat');
  }

  @Post()
  @HttpCode(200)
  @ApiAnswer('Communitychat integration record')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(WEBHOOK_400, ...WRITE_ERRORS)
  @ApiOperation({ summary: "Create or replace the project's communitychat integration (isActive true; omitted fields back to their defaults)" })
  replace(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: ChatWebhookIntegrationDto) {
    return this.integrations.replace(scope.workspaceId, projectId, 'communitychat', dto);
  }

  @Patch()
  @ApiAnswer('Communitychat integration record')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(WEBHOOK_400, ...UPDATE_ERRORS)
  @ApiOperation({ summary: 'Change the fields sent; events merge into the stored ones; channelName null clears it' })
  update(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: UpdateChatWebhookIntegrationDto) {
    return this.integrations.update(scope.workspaceId, projectId, 'communitychat', dto);
  }

  @Delete()
  @ApiAnswer('{success: true}')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...REMOVE_ERRORS)
  @ApiOperation({ summary: "Delete the project's communitychat integration" })
  remove(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.integrations.remove(scope.workspaceId, projectId, 'communitychat');
  }

  @Get('deliveries')
  @ApiAnswer('{deliveries: Delivery[]} (newest first)')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...DELIVERIES_ERRORS)
  @ApiOperation({ summary: 'The delivery log of the communitychat integration, newest first; `before` pages on' })
  listDeliveries(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Query() q: ListDeliveriesQuery) {
    return this.deliveries.list(scope.workspaceId, projectId, 'communitychat', q);
  }

  @Post('deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @ApiAnswer('Delivery (status pending)')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...REDELIVER_ERRORS)
  @ApiOperation({ summary: 'Deliver the same event again (same body and webhook-id)' })
  redeliver(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Param('deliveryId', Id('Delivery')) deliveryId: string) {
    return this.deliveries.redeliver(scope.workspaceId, projectId, 'communitychat', deliveryId);
  }
}
