import type { TaskFilters } from './filters';
import { t } from '../i18n';

/**
 * The bar above the calendar and the timeline: earlier / Today / later, the period's title, and
 * the choice of span (its two buttons, the first standing for no `span` in the address).
 */
export function PeriodBar(props: {
  title: string;
  earlier: string;
  later: string;
  onStep: (by: -1 | 1) => void;
  onToday: () => void;
  spanLabel: string;
  spans: [{ name: string; span: TaskFilters['span'] }, { name: string; span: TaskFilters['span'] }];
  span: TaskFilters['span'];
  onSpan: (span: TaskFilters['span']) => void;
}) {
  return (
    <div className="calendar-bar">
      <div className="actions">
        <button type="button" className="secondary" onClick={() => props.onStep(-1)}>
          <span aria-hidden="true">‹</span>
          <span className="visually-hidden">{props.earlier}</span>
        </button>
        <button type="button" className="secondary" onClick={props.onToday}>
          {t('views.periodBar.today')}
        </button>
        <button type="button" className="secondary" onClick={() => props.onStep(1)}>
          <span aria-hidden="true">›</span>
          <span className="visually-hidden">{props.later}</span>
        </button>
      </div>
      <h2 className="calendar-title">{props.title}</h2>
      <div className="segmented" role="group" aria-label={props.spanLabel}>
        {props.spans.map((s) => (
          <button key={s.name} type="button" aria-pressed={props.span === s.span} onClick={() => props.onSpan(s.span)}>
            {s.name}
          </button>
        ))}
      </div>
    </div>
  );
}
