import { useId, useRef, useState } from 'react';
import { t } from '../i18n';

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
      <label htmlFor={id}>
        {t('people.inviteLink.invitationLinkFor')} {email}
      </label>
      <div className="actions">
        <input id={id} ref={field} className="mono" type="text" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="secondary" onClick={() => void copy()} aria-label={t('people.inviteLink.copyLinkFor', { email })}>
          {t('people.inviteLink.copyLink')}
        </button>
      </div>
      <span className="muted" aria-live="polite">
        {copied === 'copied' && t('people.inviteLink.linkCopied')}
        {copied === 'selected' && t('people.inviteLink.theLinkIsSelectedCopy')}
      </span>
    </div>
  );
}
