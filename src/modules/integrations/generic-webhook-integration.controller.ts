import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { AnswersJsonNull } from '../../common/http/json-null';
import { Id } from '../../common/pipes/id.pipe';
import { DeliveryLogService } from './delivery-log.service';
import { ListDeliveriesQuery } from './dto/deliveries.dto';
import { GenericWebhookIntegrationDto, UpdateGenericWebhookIntegrationDto } from './dto/integration.dto';
import { IntegrationService } from './integration.service';
import { DELIVERIES_ERRORS, GET_ERRORS, PROJECT, REDELIVER_ERRORS, REMOVE_ERRORS, UPDATE_ERRORS, WEBHOOK_400, WRITE_ERRORS } from './integration-routes';

@ApiTags('generic-webhook-integration')
@ApiBearerAuth()
@Controller('generic-webhook-integration/project/:projectId')
export class GenericWebhookIntegrationController {
  constructor(
    private readonly integrations: IntegrationService,
    private readonly deliveries: DeliveryLogService,
  ) {}

  @Get()
  @AnswersJsonNull()
  @ApiAnswer('Generic webhook integration record, or null when the project has none')
  @RequirePermission('workspace', 'read', PROJECT)
  @ApiErrors(...GET_ERRORS)
  @ApiOperation({ summary: "The project's generic webhook integration" })
  get(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.integrations.get(scope.workspaceId, projectId, 'generic-webhook');
  }

  @Post()
  @HttpCode(200)
  @ApiAnswer('Generic webhook integration record')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(WEBHOOK_400, ...WRITE_ERRORS)
  @ApiOperation({ summary: "Create or replace the project's generic webhook integration (isActive true; omitted fields back to their defaults)" })
  replace(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: GenericWebhookIntegrationDto) {
    return this.integrations.replace(scope.workspaceId, projectId, 'generic-webhook', dto);
  }

  @Patch()
  @ApiAnswer('Generic webhook integration record')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(WEBHOOK_400, ...UPDATE_ERRORS)
  @ApiOperation({ summary: 'Change the fields sent; events merge into the stored ones; a new secret replaces the old one (which keeps signing for 24 h), null or "" removes it' })
  update(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: UpdateGenericWebhookIntegrationDto) {
    return this.integrations.update(scope.workspaceId, projectId, 'generic-webhook', dto);
  }

  @Delete()
  @ApiAnswer('{success: true}')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...REMOVE_ERRORS)
  @ApiOperation({ summary: "Delete the project's generic webhook integration" })
  remove(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.integrations.remove(scope.workspaceId, projectId, 'generic-webhook');
  }

  @Get('deliveries')
  @ApiAnswer('{deliveries: Delivery[]} (newest first)')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...DELIVERIES_ERRORS)
  @ApiOperation({ summary: 'The delivery log of the generic webhook integration, newest first; `before` pages on' })
  listDeliveries(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Query() q: ListDeliveriesQuery) {
    return this.deliveries.list(scope.workspaceId, projectId, 'generic-webhook', q);
  }

  @Post('deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @ApiAnswer('Delivery (status pending)')
  @RequirePermission('workspace', 'manage_settings', PROJECT)
  @ApiErrors(...REDELIVER_ERRORS)
  @ApiOperation({ summary: 'Deliver the same event again (same body and webhook-id)' })
  redeliver(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Param('deliveryId', Id('Delivery')) deliveryId: string) {
    return this.deliveries.redeliver(scope.workspaceId, projectId, 'generic-webhook', deliveryId);
  }
}
