import { OutboundHttp, OutboundRequest, OutboundResponse } from '../../../common/net/outbound-http';
import { MailerService } from '../../mail/mailer.service';
import { taskEvent } from '../../../../test/support/task-event';
import { PersonChannels, PersonTarget } from './person-channels';
import { PersonDeliveryRow } from './person-delivery.repository';

const event = taskEvent();
const row = { id: 'd-1', payload: event } as PersonDeliveryRow;
const target = (over: Partial<PersonTarget>): PersonTarget => ({ email: null, topicpush: null, serverpush: null, webhookUrl: null, signingSecrets: [], ...over });

/** The senders with an HTTP client that answers `answer` and remembers what it was asked. */
function senders(answer: OutboundResponse) {
  const sent: OutboundRequest[] = [];
  const http = { postGuarded: async (req: OutboundRequest) => (sent.push(req), answer) } as unknown as OutboundHttp;
  return { channels: new PersonChannels(http, {} as MailerService), sent };
}

describe("a person's webhook", () => {
  it("cuts the URL's secret out of a refusal that quotes it, in its path or its query", async () => {
    for (const [url, quoted] of [
      ['https://me.example.test/?token=s3cr3tvalue', '/?token=s3cr3tvalue'],
      ['https://me.example.test/hooks/s3cr3tvalue', '/hooks/s3cr3tvalue'],
    ]) {
      const { channels, sent } = senders({ statusCode: 401, headers: {}, body: `no such hook: ${quoted} (${url})`, truncated: false });
      const out = await channels.webhook.send([row], target({ webhookUrl: url, signingSecrets: ['whsec_c2lnbmluZ3NlY3JldA=='] }), {
        clientUrl: 'https://app.test',
        nowSeconds: 1_900_000_000,
      });
      expect(sent.map((r) => r.url)).toEqual([url]);
      expect(out.statusCode).toBe(401);
      expect(JSON.stringify(out.verdict)).not.toContain('s3cr3tvalue');
      expect(JSON.stringify(out.verdict)).toContain('[redacted]');
    }
  });
});
