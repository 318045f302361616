import { api, must } from '../api/client';
import type {
  ChatWebhookBody,
  ChatWebhookIntegration,
  ChatWebhookPatch,
  Delivery,
  GenericWebhookBody,
  GenericWebhookIntegration,
  GenericWebhookPatch,
  IntegrationEvents,
  MessengerBody,
  MessengerIntegration,
  MessengerPatch,
} from '../api/types';
import { t } from '../i18n';

/**
 * The four notifying integrations of a project (docs/integrations.md), each described once: the
 * fields its body takes, which of them are secrets (write-only: the record shows a mask), and its
 * routes. The screen is the same for all four; only this description differs.
 */

export type NotifierKind = 'messenger' | 'teamchat' | 'communitychat' | 'generic-webhook';

/** One field of the settings form. A secret shows the record's mask and is sent only when typed. */
export interface FieldSpec {
  key: string;
  label: string;
  /** Required when the integration is made (POST). */
  required?: boolean;
  secret?: boolean;
  /** An optional field that PATCH may empty with null. */
  nullable?: boolean;
  number?: boolean;
  hint?: string;
}

/** What every notifying record has in common. */
export interface NotifierRecord {
  id: string;
  events: IntegrationEvents;
  isActive: boolean;
  updatedAt: string;
}

export type FormValues = Record<string, string>;
export interface Change {
  values: FormValues;
  events?: Partial<IntegrationEvents>;
  isActive?: boolean;
}

export interface Notifier<R extends NotifierRecord = NotifierRecord> {
  kind: NotifierKind;
  title: string;
  about: string;
  fields: FieldSpec[];
  /** The value a non-secret field has now, or the mask of a secret one (null: none set). */
  shown(record: R, key: string): string | null;
  get(projectId: string): Promise<R | null>;
  create(projectId: string, change: Change): Promise<R>;
  update(projectId: string, change: Change): Promise<R>;
  remove(projectId: string): Promise<unknown>;
  deliveries(projectId: string, before: string | undefined): Promise<Delivery[]>;
  redeliver(projectId: string, deliveryId: string): Promise<Delivery>;
}

/** The values typed: empty strings left out (a secret left empty keeps the stored one). */
function typed(values: FormValues): FormValues {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
}

/** A PATCH body: the fields typed, and an emptied nullable field as null (docs/integrations.md, "Partial update"). */
function patchOf(spec: FieldSpec[], change: Change): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of spec) {
    const v = change.values[f.key];
    if (v === undefined) continue;
    if (v.trim() === '') {
      if (f.nullable) body[f.key] = null;
      continue;
    }
    body[f.key] = f.number ? Number(v) : v.trim();
  }
  if (change.events) body.events = change.events;
  if (change.isActive !== undefined) body.isActive = change.isActive;
  return body;
}

const messengerFields: FieldSpec[] = [
  {
    key: 'botToken',
    get label() {
      return t('integrations.fields.botToken');
    },
    required: true,
    secret: true,
    get hint() {
      return t('integrations.fields.botTokenHint');
    },
  },
  {
    key: 'chatId',
    get label() {
      return t('integrations.fields.chatId');
    },
    required: true,
  },
  {
    key: 'threadId',
    get label() {
      return t('integrations.fields.threadId');
    },
    number: true,
    nullable: true,
  },
  {
    key: 'chatLabel',
    get label() {
      return t('integrations.fields.chatLabel');
    },
    nullable: true,
  },
];
const chatFields: FieldSpec[] = [
  {
    key: 'webhookUrl',
    get label() {
      return t('integrations.fields.webhookUrl');
    },
    required: true,
    secret: true,
    get hint() {
      return t('integrations.fields.webhookUrlHint');
    },
  },
  {
    key: 'channelName',
    get label() {
      return t('integrations.fields.channelName');
    },
    nullable: true,
  },
];
const genericFields: FieldSpec[] = [
  {
    key: 'webhookUrl',
    get label() {
      return t('integrations.fields.webhookUrl');
    },
    required: true,
    secret: true,
  },
  {
    key: 'secret',
    get label() {
      return t('integrations.fields.secret');
    },
    secret: true,
    get hint() {
      return t('integrations.fields.secretHint');
    },
  },
  {
    key: 'dueDateReminderLeadTimeMinutes',
    get label() {
      return t('integrations.fields.reminderLeadTime');
    },
    number: true,
    get hint() {
      return t('integrations.fields.reminderLeadTimeHint');
    },
  },
];

const messenger: Notifier<MessengerIntegration> = {
  kind: 'messenger',
  get title() {
    return t('integrations.kinds.messenger');
  },
  get about() {
    return t('integrations.kinds.messengerAbout');
  },
  fields: messengerFields,
  shown: (r, key) =>
    key === 'botToken'
      ? r.maskedBotToken
      : key === 'chatId'
        ? r.chatId
        : key === 'threadId'
          ? r.threadId === null
            ? null
            : String(r.threadId)
          : key === 'chatLabel'
            ? r.chatLabel
            : null,
  get: async (projectId) => must(await api.GET('/api/messenger-integration/project/{projectId}', { params: { path: { projectId } } })),
  create: async (projectId, c) => {
    const v = typed(c.values);
    const body: MessengerBody = {
      botToken: v.botToken ?? '',
      chatId: v.chatId ?? '',
      threadId: v.threadId ? Number(v.threadId) : null,
      chatLabel: v.chatLabel ?? null,
      events: c.events,
    };
    return must(await api.POST('/api/messenger-integration/project/{projectId}', { params: { path: { projectId } }, body }));
  },
  update: async (projectId, c) =>
    must(await api.PATCH('/api/messenger-integration/project/{projectId}', { params: { path: { projectId } }, body: patchOf(messengerFields, c) as MessengerPatch })),
  remove: async (projectId) => must(await api.DELETE('/api/messenger-integration/project/{projectId}', { params: { path: { projectId } } })),
  deliveries: async (projectId, before) =>
    must(await api.GET('/api/messenger-integration/project/{projectId}/deliveries', { params: { path: { projectId }, query: { limit: PAGE, before } } })).deliveries,
  redeliver: async (projectId, deliveryId) =>
    must(await api.POST('/api/messenger-integration/project/{projectId}/deliveries/{deliveryId}/redeliver', { params: { path: { projectId, deliveryId } } })),
};

const chatShown = (r: ChatWebhookIntegration, key: string) => (key === 'webhookUrl' ? r.maskedWebhookUrl : key === 'channelName' ? r.channelName : null);
const chatCreate = (c: Change): ChatWebhookBody => {
  const v = typed(c.values);
  return { webhookUrl: v.webhookUrl ?? '', channelName: v.channelName ?? null, events: c.events };
};

const teamchat: Notifier<ChatWebhookIntegration> = {
  kind: 'teamchat',
  get title() {
    return t('integrations.kinds.teamchat');
  },
  get about() {
    return t('integrations.kinds.teamchatAbout');
  },
  fields: chatFields,
  shown: chatShown,
  get: async (projectId) => must(await api.GET('/api/teamchat-integration/project/{projectId}', { params: { path: { projectId } } })),
  create: async (projectId, c) => must(await api.POST('/api/teamchat-integration/project/{projectId}', { params: { path: { projectId } }, body: chatCreate(c) })),
  update: async (projectId, c) =>
    must(await api.PATCH('/api/teamchat-integration/project/{projectId}', { params: { path: { projectId } }, body: patchOf(chatFields, c) as ChatWebhookPatch })),
  remove: async (projectId) => must(await api.DELETE('/api/teamchat-integration/project/{projectId}', { params: { path: { projectId } } })),
  deliveries: async (projectId, before) =>
    must(await api.GET('/api/teamchat-integration/project/{projectId}/deliveries', { params: { path: { projectId }, query: { limit: PAGE, before } } })).deliveries,
  redeliver: async (projectId, deliveryId) =>
    must(await api.POST('/api/teamchat-integration/project/{projectId}/deliveries/{deliveryId}/redeliver', { params: { path: { projectId, deliveryId } } })),
};

const communitychat: Notifier<ChatWebhookIntegration> = {
  kind: 'communitychat',
  get title() {
    return t('integrations.kinds.communitychat');
  },
  get about() {
    return t('integrations.kinds.communitychatAbout');
  },
  fields: chatFields,
  shown: chatShown,
  get: async (projectId) => must(await api.GET('/api/communitychat-integration/project/{projectId}', { params: { path: { projectId } } })),
  create: async (projectId, c) => must(await api.POST('/api/communitychat-integration/project/{projectId}', { params: { path: { projectId } }, body: chatCreate(c) })),
  update: async (projectId, c) =>
    must(await api.PATCH('/api/communitychat-integration/project/{projectId}', { params: { path: { projectId } }, body: patchOf(chatFields, c) as ChatWebhookPatch })),
  remove: async (projectId) => must(await api.DELETE('/api/communitychat-integration/project/{projectId}', { params: { path: { projectId } } })),
  deliveries: async (projectId, before) =>
    must(await api.GET('/api/communitychat-integration/project/{projectId}/deliveries', { params: { path: { projectId }, query: { limit: PAGE, before } } })).deliveries,
  redeliver: async (projectId, deliveryId) =>
    must(await api.POST('/api/communitychat-integration/project/{projectId}/deliveries/{deliveryId}/redeliver', { params: { path: { projectId, deliveryId } } })),
};

const genericWebhook: Notifier<GenericWebhookIntegration> = {
  kind: 'generic-webhook',
  get title() {
    return t('integrations.kinds.genericWebhook');
  },
  get about() {
    return t('integrations.kinds.genericWebhookAbout');
  },
  fields: genericFields,
  shown: (r, key) =>
    key === 'webhookUrl' ? r.maskedWebhookUrl : key === 'secret' ? r.maskedSecret : key === 'dueDateReminderLeadTimeMinutes' ? String(r.dueDateReminderLeadTimeMinutes) : null,
  get: async (projectId) => must(await api.GET('/api/generic-webhook-integration/project/{projectId}', { params: { path: { projectId } } })),
  create: async (projectId, c) => {
    const v = typed(c.values);
    const lead = v.dueDateReminderLeadTimeMinutes;
    const body: GenericWebhookBody = {
      webhookUrl: v.webhookUrl ?? '',
      secret: v.secret ?? null,
      events: c.events,
      ...(lead === undefined ? {} : { dueDateReminderLeadTimeMinutes: Number(lead) }),
    };
    return must(await api.POST('/api/generic-webhook-integration/project/{projectId}', { params: { path: { projectId } }, body }));
  },
  // A secret field left empty keeps the stored secret; removing it is its own action (removeSecret).
  update: async (projectId, c) =>
    must(await api.PATCH('/api/generic-webhook-integration/project/{projectId}', { params: { path: { projectId } }, body: patchOf(genericFields, c) as GenericWebhookPatch })),
  remove: async (projectId) => must(await api.DELETE('/api/generic-webhook-integration/project/{projectId}', { params: { path: { projectId } } })),
  deliveries: async (projectId, before) =>
    must(await api.GET('/api/generic-webhook-integration/project/{projectId}/deliveries', { params: { path: { projectId }, query: { limit: PAGE, before } } })).deliveries,
  redeliver: async (projectId, deliveryId) =>
    must(await api.POST('/api/generic-webhook-integration/project/{projectId}/deliveries/{deliveryId}/redeliver', { params: { path: { projectId, deliveryId } } })),
};

/** Removes the generic webhook's signing secret (PATCH secret null: signing stops at once, docs/integrations.md). */
export async function removeSigningSecret(projectId: string): Promise<GenericWebhookIntegration> {
  return must(await api.PATCH('/api/generic-webhook-integration/project/{projectId}', { params: { path: { projectId } }, body: { secret: null } }));
}

/** Deliveries per page of the log. */
export const PAGE = 20;

export const NOTIFIERS = [messenger, teamchat, communitychat, genericWebhook] as unknown as Notifier[];

const EVENTS = [
  'taskCreated',
  'taskStatusChanged',
  'taskPriorityChanged',
  'taskTitleChanged',
  'taskDescriptionChanged',
  'taskCommentCreated',
  'taskAssigneeChanged',
  'taskDueDateChanged',
  'taskMoved',
  'taskDeleted',
  'dueDateReminder',
] as const;
/** How the app names each event flag, in the language shown. */
export const eventLabel = (key: keyof IntegrationEvents) => t(`integrations.events.${key as (typeof EVENTS)[number]}`);
export const EVENT_KEYS = [...EVENTS] as (keyof IntegrationEvents)[];
