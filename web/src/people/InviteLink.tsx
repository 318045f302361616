import { useId, useRef, useState } from 'react';

/**
 * An invitation's accept link in a read-only field with a "Copy link" button: copied with the
 * clipboard API, or, where it is refused (no secure context, no permission), the text is selected
 * so that the user copies it by hand.
 */
export function InviteLink({ link, email }: { link: string; email: string }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'' | 'copied' | 'selected'>('');
  const select = () => {
    field.current?.focus();
    field.current?.select();
  };
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(link);
      setCopied('copied');
    } catch {
      select();
      setCopied('selected');
    }
  };
  return (
    <div className="invite-link">
      <label htmlFor={id}>Invitation link for {email}</label>
      <div className="actions">
        <input id={id} ref={field} className="mono" type="text" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="secondary" onClick={() => void copy()} aria-label={`Copy link for ${email}`}>
          Copy link
        </button>
      </div>
      <span className="muted" aria-live="polite">
        {copied === 'copied' && 'Link copied.'}
        {copied === 'selected' && 'The link is selected: copy it with Ctrl+C (⌘C).'}
      </span>
    </div>
  );
}
