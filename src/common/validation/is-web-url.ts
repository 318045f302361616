import { Matches } from 'class-validator';

/**
 * An absolute http(s) URL: what a client may render as an image or a link. Anything else
 * (`javascript:`, `data:`, relative paths) is refused, so a stored value cannot become a script link.
 */
export const IsWebUrl = (field: string) => Matches(/^https?:\/\/[^\s/?#]+[^\s]*$/i, { message: `${field} must be an http(s) URL` });
