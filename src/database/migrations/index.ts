// Every migration, in order. Add new ones here (files are named <epoch-ms>-<Name>.ts).
import { Foundation1763780000000 } from './1763780000000-Foundation';
import { WorkItems1763780100000 } from './1763780100000-WorkItems';
import { OAuthAccount1763780400000 } from './1763780400000-OAuthAccount';
import { OrganizationManagement1763780500000 } from './1763780500000-OrganizationManagement';
import { TaskSearchText1763780600000 } from './1763780600000-TaskSearchText';
import { SearchByActivityKind1763780700000 } from './1763780700000-SearchByActivityKind';
import { EmailNfkc1763780800000 } from './1763780800000-EmailNfkc';
import { Outbox1763780900000 } from './1763780900000-Outbox';
import { TenantColumns1763781000000 } from './1763781000000-TenantColumns';
import { IntegrationsAndDeliveries1763781100000 } from './1763781100000-IntegrationsAndDeliveries';
import { AccountTokens1763781200000 } from './1763781200000-AccountTokens';
import { UserNotifications1763781500000 } from './1763781500000-UserNotifications';
import { OutboxWakeAfterCommit1763781700000 } from './1763781700000-OutboxWakeAfterCommit';
import { GitHosts1763781600000 } from './1763781600000-GitHosts';
import { ClientCompatibility1763781800000 } from './1763781800000-ClientCompatibility';
import { WorkflowRules1763781900000 } from './1763781900000-WorkflowRules';
import { ActivityKindCreatedIndexes1763782000000 } from './1763782000000-ActivityKindCreatedIndexes';
import { SearchStatisticsTarget1763782100000 } from './1763782100000-SearchStatisticsTarget';
import { ApiKeyParent1763782250000 } from './1763782250000-ApiKeyParent';
import { EmailJobs1763782400000 } from './1763782400000-EmailJobs';
import { SelfgitWebhookSecretRotation1763782500000 } from './1763782500000-SelfgitWebhookSecretRotation';
import { ExternalCommentLinks1763782600000 } from './1763782600000-ExternalCommentLinks';
import { FormerTaskKeys1763782710000 } from './1763782710000-FormerTaskKeys';
import { Assets1763782900000 } from './1763782900000-Assets';
import { TaskWatchers1763783000000 } from './1763783000000-TaskWatchers';
import { DueDateReminders1763783100000 } from './1763783100000-DueDateReminders';
import { TaskFilterIndexes1763782800000 } from './1763782800000-TaskFilterIndexes';

export const MIGRATIONS = [
  Foundation1763780000000,
  WorkItems1763780100000,
  OAuthAccount1763780400000,
  OrganizationManagement1763780500000,
  TaskSearchText1763780600000,
  SearchByActivityKind1763780700000,
  EmailNfkc1763780800000,
  Outbox1763780900000,
  TenantColumns1763781000000,
  IntegrationsAndDeliveries1763781100000,
  AccountTokens1763781200000,
  UserNotifications1763781500000,
  GitHosts1763781600000,
  OutboxWakeAfterCommit1763781700000,
  ClientCompatibility1763781800000,
  WorkflowRules1763781900000,
  ActivityKindCreatedIndexes1763782000000,
  SearchStatisticsTarget1763782100000,
  ApiKeyParent1763782250000,
  EmailJobs1763782400000,
  SelfgitWebhookSecretRotation1763782500000,
  ExternalCommentLinks1763782600000,
  FormerTaskKeys1763782710000,
  TaskFilterIndexes1763782800000,
  Assets1763782900000,
  TaskWatchers1763783000000,
  DueDateReminders1763783100000,
];
