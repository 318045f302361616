import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Type } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors, ErrorCase } from '../../common/http/api-errors';
import { AnswersJsonNull } from '../../common/http/json-null';
import { Id } from '../../common/pipes/id.pipe';
import { DeliveryLogService } from '../delivery/delivery-log.service';
import { ListDeliveriesQuery } from '../delivery/delivery-log.dto';
import {
  ChatWebhookIntegrationDto,
  GenericWebhookIntegrationDto,
  IntegrationInput,
  IntegrationPatch,
  MessengerIntegrationDto,
  UpdateChatWebhookIntegrationDto,
  UpdateGenericWebhookIntegrationDto,
  UpdateMessengerIntegrationDto,
} from './dto/integration.dto';
import { IntegrationType } from './integration.record';
import { ChatWebhookIntegrationSchema, GenericWebhookIntegrationSchema, MessengerIntegrationSchema } from './integration.schema';
import { IntegrationService } from './integration.service';
import { DELIVERIES_ERRORS, GET_ERRORS, PROJECT, REDELIVER_ERRORS, REMOVE_ERRORS, UPDATE_ERRORS, WEBHOOK_400, WRITE_ERRORS } from './integration-routes';
import { SuccessAnswer } from '../../common/http/answers.schema';
import { DeliveryListSchema, DeliveryRecordSchema } from '../delivery/delivery.schema';

/** What sets one notifying integration's routes apart from another's (docs/integrations.md, "Routes"). */
interface NotifyingIntegration {
  type: IntegrationType;
  /** The type as the route descriptions name it, in lower case: `messenger`, `generic webhook`. */
  name: string;
  /** The body classes of POST (create or replace) and PATCH (change the fields sent): the validation pipe and the OpenAPI document read them. */
  replaceBody: Type<IntegrationInput>;
  updateBody: Type<IntegrationPatch>;
  /** The 400 answers each documents besides the shared ones. */
  replace400: ErrorCase;
  update400: ErrorCase;
  /** The OpenAPI schema of the type's record (GET, POST and PATCH answer it). */
  record: Type;
  /** What PATCH says after "events merge into the stored ones": which fields null clears. */
  updateNote: string;
}

/**
 * The class of a body parameter, which TypeScript cannot emit for a class chosen when the
 * controller is made (it emits `Object`): replaces the parameter's entry in `design:paramtypes`,
 * where the validation pipe and the OpenAPI document look. Listed last among a method's
 * decorators, it runs right after the compiler's metadata is written.
 */
const BodyOf =
  (index: number, body: Type): MethodDecorator =>
  (target, key) => {
    const types = [...(Reflect.getMetadata('design:paramtypes', target, key) as unknown[])];
    types[index] = body;
    Reflect.defineMetadata('design:paramtypes', types, target, key);
  };

/** `generic-webhook` → `GenericWebhookIntegrationController`, the name the OpenAPI operation ids are made of. */
const controllerName = (type: IntegrationType) => `${type.replace(/(^|-)(\w)/g, (_, _dash: string, c: string) => c.toUpperCase())}IntegrationController`;

/**
 * The settings and delivery-log routes of one notifying integration, under
 * `/<type>-integration/project/:projectId`: the same six routes, permissions and answers for
 * every type, with the type's own body classes, 400 answers and wording.
 */
function notifyingIntegrationController(i: NotifyingIntegration): Type {
  const Name = i.name.charAt(0).toUpperCase() + i.name.slice(1);

  @ApiTags(`${i.type}-integration`)
  @ApiBearerAuth()
  @Controller(`${i.type}-integration/project/:projectId`)
  class NotifyingIntegrationController {
    constructor(
      private readonly integrations: IntegrationService,
      private readonly deliveries: DeliveryLogService,
    ) {}

    @Get()
    @AnswersJsonNull()
    @ApiAnswer(`${Name} integration record, or null when the project has none`, i.record, { nullable: true })
    @RequirePermission('workspace', 'read', PROJECT)
    @ApiErrors(...GET_ERRORS)
    @ApiOperation({ summary: `The project's ${i.name} integration` })
    get(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
      return this.integrations.get(scope.workspaceId, projectId, i.type);
    }

    @Post()
    @HttpCode(200)
    @ApiAnswer(`${Name} integration record`, i.record)
    @RequirePermission('workspace', 'manage_settings', PROJECT)
    @ApiErrors(i.replace400, ...WRITE_ERRORS)
    @ApiOperation({ summary: `Create or replace the project's ${i.name} integration (isActive true; omitted fields back to their defaults)` })
    @BodyOf(2, i.replaceBody)
    replace(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: IntegrationInput) {
      return this.integrations.replace(scope.workspaceId, projectId, i.type, dto);
    }

    @Patch()
    @ApiAnswer(`${Name} integration record`, i.record)
    @RequirePermission('workspace', 'manage_settings', PROJECT)
    @ApiErrors(i.update400, ...UPDATE_ERRORS)
    @ApiOperation({ summary: `Change the fields sent; events merge into the stored ones; ${i.updateNote}` })
    @BodyOf(2, i.updateBody)
    update(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: IntegrationPatch) {
      return this.integrations.update(scope.workspaceId, projectId, i.type, dto);
    }

    @Delete()
    @ApiAnswer('{success: true}', SuccessAnswer)
    @RequirePermission('workspace', 'manage_settings', PROJECT)
    @ApiErrors(...REMOVE_ERRORS)
    @ApiOperation({ summary: `Delete the project's ${i.name} integration` })
    remove(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
      return this.integrations.remove(scope.workspaceId, projectId, i.type);
    }

    @Get('deliveries')
    @ApiAnswer('{deliveries: Delivery[]} (newest first)', DeliveryListSchema)
    @RequirePermission('workspace', 'manage_settings', PROJECT)
    @ApiErrors(...DELIVERIES_ERRORS)
    @ApiOperation({ summary: `The delivery log of the ${i.name} integration, newest first; \`before\` pages on` })
    listDeliveries(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Query() q: ListDeliveriesQuery) {
      return this.deliveries.list(scope.workspaceId, projectId, i.type, q);
    }

    @Post('deliveries/:deliveryId/redeliver')
    @HttpCode(200)
    @ApiAnswer('Delivery (status pending)', DeliveryRecordSchema)
    @RequirePermission('workspace', 'manage_settings', PROJECT)
    @ApiErrors(...REDELIVER_ERRORS)
    @ApiOperation({ summary: 'Deliver the same event again (same body and webhook-id)' })
    redeliver(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Param('deliveryId', Id('Delivery')) deliveryId: string) {
      return this.deliveries.redeliver(scope.workspaceId, projectId, i.type, deliveryId);
    }
  }

  // Each type's class keeps the name it had as a class of its own (the OpenAPI operation ids, logs).
  Object.defineProperty(NotifyingIntegrationController, 'name', { value: controllerName(i.type) });
  return NotifyingIntegrationController;
}

const CHAT_WEBHOOK = {
  record: ChatWebhookIntegrationSchema,
  replaceBody: ChatWebhookIntegrationDto,
  updateBody: UpdateChatWebhookIntegrationDto,
  replace400: WEBHOOK_400,
  update400: WEBHOOK_400,
};

export const MessengerIntegrationController = notifyingIntegrationController({
  type: 'messenger',
  name: 'messenger',
  record: MessengerIntegrationSchema,
  replaceBody: MessengerIntegrationDto,
  updateBody: UpdateMessengerIntegrationDto,
  replace400: [400, 'Enter a valid bot token', 'chatId is required', 'threadId must be at least 1', 'events.taskCreated must be a boolean value'],
  update400: [400, 'Enter a valid bot token', 'threadId must be at least 1'],
  updateNote: 'threadId/chatLabel null clear them',
});

export const TeamchatIntegrationController = notifyingIntegrationController({ type: 'teamchat', name: 'teamchat', ...CHAT_WEBHOOK, updateNote: 'channelName null clears it' });

export const CommunitychatIntegrationController = notifyingIntegrationController({
  type: 'communitychat',
  name: 'communitychat',
  ...CHAT_WEBHOOK,
  updateNote: 'channelName null clears it',
});

export const GenericWebhookIntegrationController = notifyingIntegrationController({
  type: 'generic-webhook',
  name: 'generic webhook',
  record: GenericWebhookIntegrationSchema,
  replaceBody: GenericWebhookIntegrationDto,
  updateBody: UpdateGenericWebhookIntegrationDto,
  replace400: WEBHOOK_400,
  update400: WEBHOOK_400,
  updateNote: 'a new secret replaces the old one (which keeps signing for 24 h), null or "" removes it',
});
