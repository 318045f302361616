import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { Delivery } from '../api/types';
import { Empty, ErrorState, Loading } from '../ui/States';
import { PAGE, type Notifier } from './notifiers';
import { formatDateTime, t } from '../i18n';

const when = (iso: string | null) => (iso ? formatDateTime(iso) : '—');

/**
 * A pending delivery whose last attempt did not fail is on its way (just made, or just redelivered):
 * Redeliver waits for its outcome. One waiting for a retry after a failure may be redelivered now
 * (receivers deduplicate by webhook-id, docs/integrations.md).
 */
const waitingForOutcome = (d: Delivery) => d.status === 'pending' && !d.attempts.at(-1)?.error;

/**
 * An integration's delivery log (GET …/deliveries, newest first; "Older" pages on with `before`),
 * with Redeliver per delivery (docs/integrations.md, "Delivery log"). While a delivery is pending
 * the log is fetched again every 1.5 s, so its outcome shows when it comes, and so it is for 15 s
 * after a task event of the project (the live events), whose deliveries are written a moment later;
 * otherwise every 10 s.
 */
export function DeliveryLog({ notifier, projectId }: { notifier: Notifier; projectId: string }) {
  const queryClient = useQueryClient();
  const key = ['deliveries', projectId, notifier.kind];
  const log = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => notifier.deliveries(projectId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.length < PAGE ? undefined : last[last.length - 1]?.id),
    refetchInterval: (q) => {
      const pending = q.state.data?.pages.some((p) => p.some((d) => d.status === 'pending'));
      const lastEvent = queryClient.getQueryData<number>(['task-event-at', projectId]) ?? 0;
      return pending || Date.now() - lastEvent < 15_000 ? 1500 : 10_000;
    },
  });
  const redeliver = useMutation({
    mutationFn: (id: string) => notifier.redeliver(projectId, id),
    onSuccess: async (d) => {
      // The answer is the delivery, now pending: show it at once; the polling brings its outcome.
      queryClient.setQueryData<InfiniteData<Delivery[], string | undefined>>(
        key,
        (data) => data && { ...data, pages: data.pages.map((p) => p.map((x) => (x.id === d.id ? d : x))) },
      );
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });

  const rows = log.data?.pages.flat() ?? [];
  const headingId = `log-${notifier.kind}`;
  return (
    <section className="delivery-log" aria-labelledby={headingId}>
      <div className="row">
        <h4 id={headingId}>{t('integrations.deliveryLog.deliveryLog')}</h4>
        <button
          type="button"
          className="secondary"
          onClick={() => void log.refetch()}
          disabled={log.isFetching}
          aria-label={t('integrations.deliveryLog.refreshTheDeliveryLog', { integration: notifier.title })}
        >
          {t('integrations.deliveryLog.refresh')}
        </button>
      </div>
      {log.isPending && <Loading what={t('integrations.deliveryLog.deliveries')} />}
      {log.error && <ErrorState error={log.error} />}
      {log.data && rows.length === 0 && <Empty>{t('integrations.deliveryLog.nothingDeliveredYet')}</Empty>}
      {redeliver.error && <ErrorState error={redeliver.error} />}
      {rows.length > 0 && (
        <ol className="deliveries" aria-label={t('integrations.deliveryLog.deliveries2', { integration: notifier.title })}>
          {rows.map((d) => (
            <li key={d.id} data-delivery={d.id} data-status={d.status}>
              <div className="row">
                <code className="event">{d.event}</code>
                <span className={`badge ${d.status}`}>{d.status}</span>
                <time dateTime={d.createdAt}>{when(d.createdAt)}</time>
              </div>
              <p className="attempts-count">
                <span>
                  {d.attempts.length} {d.attempts.length === 1 ? t('integrations.deliveryLog.attempt') : t('integrations.deliveryLog.attempts')}
                </span>
                {d.deliveredAt && (
                  <span>
                    {' '}
                    {t('integrations.deliveryLog.delivered')} {when(d.deliveredAt)}
                  </span>
                )}
              </p>
              {d.attempts.length > 0 && (
                <ol className="attempts" aria-label={t('integrations.deliveryLog.attempts2')}>
                  {d.attempts.map((a, i) => (
                    <li key={i}>
                      <span className="code">
                        {a.statusCode === null ? t('integrations.deliveryLog.noAnswer') : t('integrations.deliveryLog.http', { statusCode: a.statusCode })}
                      </span>
                      {a.durationMs !== null && (
                        <span>
                          {' '}
                          · {a.durationMs} {t('integrations.deliveryLog.ms')}
                        </span>
                      )}
                      {a.at && (
                        <>
                          {' · '}
                          <time dateTime={a.at}>{when(a.at)}</time>
                        </>
                      )}
                      {a.error && <span className="attempt-error"> · {a.error}</span>}
                    </li>
                  ))}
                </ol>
              )}
              <button
                type="button"
                className="secondary"
                onClick={() => redeliver.mutate(d.id)}
                disabled={waitingForOutcome(d) || (redeliver.isPending && redeliver.variables === d.id)}
                aria-label={t('integrations.deliveryLog.redeliverOf', { event: d.event, when: when(d.createdAt) })}
              >
                {t('integrations.deliveryLog.redeliver')}
              </button>
            </li>
          ))}
        </ol>
      )}
      {log.hasNextPage && (
        <button
          type="button"
          className="secondary"
          onClick={() => void log.fetchNextPage()}
          disabled={log.isFetchingNextPage}
          aria-label={t('integrations.deliveryLog.olderDeliveries', { integration: notifier.title })}
        >
          {log.isFetchingNextPage ? t('integrations.deliveryLog.loading') : t('integrations.deliveryLog.older')}
        </button>
      )}
    </section>
  );
}
