import type { RefObject } from 'react';
import type { useImagePaste } from './image-paste';
import type { useMentionPicker } from './mention-picker';

/**
 * The text area of a description or a comment: Markdown typed as is, images pasted or dropped
 * (useImagePaste) and `@` offering members to mention (useMentionPicker, whose list follows it).
 * Its label wraps it, with the class `mention-host` so that the list is placed under it.
 */
export function MarkdownTextarea(props: {
  area: RefObject<HTMLTextAreaElement | null>;
  value: string;
  onChange: (value: string) => void;
  rows: number;
  autoFocus?: boolean;
  images: ReturnType<typeof useImagePaste>;
  mentions: ReturnType<typeof useMentionPicker>;
}) {
  const { mentions } = props;
  return (
    <>
      <textarea
        ref={props.area}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        onKeyDown={(e) => void mentions.onKeyDown(e)}
        rows={props.rows}
        autoFocus={props.autoFocus}
        {...props.images.handlers}
        {...mentions.props}
      />
      {mentions.list}
    </>
  );
}
