import { useEffect, useRef, useState } from 'react';

/**
 * A destructive action asked twice: the first press shows the question with "Yes" and "Cancel"
 * in place (no browser dialog), focus moving to the question's answer.
 */
export function ConfirmButton(props: { label: string; question: string; confirmLabel: string; onConfirm: () => void; disabled?: boolean; className?: string }) {
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <button type="button" className={props.className ?? 'danger'} onClick={() => setAsking(true)} disabled={props.disabled}>
        {props.label}
      </button>
    );
  return (
    <span className="confirm" role="group" aria-label={props.question}>
      <span>{props.question}</span>
      <button
        type="button"
        ref={yes}
        className="danger"
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.confirmLabel}
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
