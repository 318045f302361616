import { Injectable } from '@nestjs/common';
import { Channel, CHANNELS } from './channels';
import { IntegrationTargets } from './integrations/integration-targets';
import { PersonTargets } from './people/person-targets';
import { DeliveryTargets } from './target-kinds';

/** The target kinds, people first: the relay's filter asks them in this order, and asking people costs no statement. */
@Injectable()
export class DeliveryTargetKinds {
  readonly all: readonly DeliveryTargets[];

  constructor(people: PersonTargets, integrations: IntegrationTargets) {
    this.all = [people, integrations];
  }

  /** The kind a channel delivers to (channels.ts). */
  of(channel: Channel): DeliveryTargets {
    const kind = this.all.find((k) => k.kind === CHANNELS[channel].target);
    if (!kind) throw new Error(`No target kind for delivery channel "${channel}"`);
    return kind;
  }
}
