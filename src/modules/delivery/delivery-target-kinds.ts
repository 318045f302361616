import { Injectable } from '@nestjs/common';
import { Channel, CHANNELS } from './channels';
import { IntegrationTargets } from './integrations/integration-targets';
import { PersonTargets } from './people/person-targets';
import { DeliveryTargets } from './target-kinds';

/**
 * The target kinds, project integrations first: the relay's filter asks them in this order (one
 * statement for a batch; people are asked only of the events no integration wants, from the event
 * alone or, for what watchers hear of, with one more statement), and the fan-out queues the
 * integrations' deliveries before it writes people's notifications.
 */
@Injectable()
export class DeliveryTargetKinds {
  readonly all: readonly DeliveryTargets[];

  constructor(people: PersonTargets, integrations: IntegrationTargets) {
    this.all = [integrations, people];
  }

  /** The kind a channel delivers to (channels.ts). */
  of(channel: Channel): DeliveryTargets {
    const kind = this.all.find((k) => k.kind === CHANNELS[channel].target);
    if (!kind) throw new Error(`No target kind for delivery channel "${channel}"`);
    return kind;
  }
}
