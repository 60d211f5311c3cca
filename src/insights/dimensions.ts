/**
 * The dimensions insights are counted by: the device class (from the User-Agent), the referring page's
 * host, the hidden-field values and the language the respondent saw. A combination of them is a segment.
 */
import { createHash } from 'node:crypto';
import Bowser from 'bowser';
import { isbot } from 'isbot';

export const DEVICE_CLASSES = ['desktop', 'mobile', 'tablet'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

/** The longest referrer host kept (a DNS name is at most 253 characters). */
const MAX_HOST_LENGTH = 253;

export interface Segment {
  device: DeviceClass;
  language: string;
  /** The referring page's host, '' when there is none (or it is the form's own host). */
  referrer: string;
  hidden: Record<string, string>;
}

/** Whether the User-Agent announces a bot, crawler or script (isbot's list; a missing User-Agent is not one). */
export const isBotUserAgent = (userAgent: string | undefined): boolean => userAgent !== undefined && userAgent !== '' && isbot(userAgent);

/** The device class of a User-Agent: mobile and tablet as bowser detects them; anything else (none, a TV, unknown) desktop. */
export function deviceClassOf(userAgent: string | undefined): DeviceClass {
  if (!userAgent) return 'desktop';
  const type = Bowser.parse(userAgent.slice(0, 512)).platform.type;
  return type === 'mobile' || type === 'tablet' ? type : 'desktop';
}

/**
 * The host of a referring address (a Referer header, or a host a custom client reports), lower-cased;
 * '' for none, one that is not an http(s) address, or `ownHostname` (the form's own pages: a reload, a step).
 */
export function referrerHostOf(referrer: string | undefined, ownHostname?: string): string {
  if (!referrer || referrer.length > 2048) return '';
  let host: string;
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return '';
    host = url.hostname.toLowerCase();
  } catch {
    return '';
  }
  if (host.length > MAX_HOST_LENGTH || host === ownHostname?.toLowerCase()) return '';
  return host;
}

/** A host as a custom client names it (`www.example.com`): '' when it is not one. */
export function hostOf(value: string): string {
  return /^[a-z0-9.-]{1,253}$/i.test(value) ? referrerHostOf(`https://${value}/`) : '';
}

/** The segment's id: the same dimensions give the same id (hidden values in name order). */
export function segmentId(segment: Segment): string {
  const hidden = Object.keys(segment.hidden)
    .sort()
    .map((name) => [name, segment.hidden[name]]);
  const canonical = JSON.stringify([segment.device, segment.language, segment.referrer, hidden]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}
