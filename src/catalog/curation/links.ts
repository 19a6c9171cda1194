import { badRequest } from '../errors.ts';
import type { Json } from '../../storage/store.ts';

/** A link on an entity (DataHub's institutional memory): its url and label, with the settings the UI reads. */
export interface LinkInput {
  readonly url: string;
  readonly label: string;
  readonly settings?: { readonly showInAssetPreview?: boolean | null } | null;
}

/** Navigation schemes only, as DataHub's LinkUtils: a javascript: or data: url would run when a browser follows it. */
const ALLOWED_SCHEMES = new Set(['http', 'https', 'ftp', 'mailto']);

/** DataHub's LinkUtils.validateUrl, with its messages. */
export function checkLinkUrl(url: string, resourceUrn: string): void {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1];
  if (scheme === undefined) {
    throw badRequest(`Failed to change institutional memory for resource ${resourceUrn}. URL scheme 'null' is not allowed.`);
  }
  if (!ALLOWED_SCHEMES.has(scheme.toLowerCase())) {
    throw badRequest(`Failed to change institutional memory for resource ${resourceUrn}. URL scheme '${scheme}' is not allowed.`);
  }
  if (!URL.canParse(url)) throw badRequest(`Failed to change institutional memory for resource ${resourceUrn}. Expected a valid URL.`);
}

export const linkMissing = (urn: string): string => `Failed to change institutional memory for resource ${urn}. Resource does not exist.`;

const elements = (v: Json | undefined): Json[] =>
  Array.isArray(v?.elements) ? (v.elements as Json[]).filter((e) => typeof e === 'object' && e !== null) : [];

/** The url and label identify a link; DataHub stores the label as the element's description. */
const isLink = (e: Json, url: string, label: string): boolean => e.url === url && e.description === label;

const settingsOf = (l: LinkInput): Json =>
  l.settings != null ? { settings: l.settings.showInAssetPreview != null ? { showInAssetPreview: l.settings.showInAssetPreview } : {} } : {};

const alreadyThere = (l: LinkInput) => badRequest(`The link '${l.url}' with label '${l.label}' already exists`);

/** addLink: a new element last, stamped by the caller; the same url and label twice is refused. */
export function addLink(current: Json | undefined, link: LinkInput, stamp: Json): Json {
  const list = elements(current);
  if (list.some((e) => isLink(e, link.url, link.label))) throw alreadyThere(link);
  return { ...current, elements: [...list, { url: link.url, description: link.label, createStamp: stamp, ...settingsOf(link) }] };
}

/** updateLink: the element with the current url and label replaced in place, keeping its creation stamp. */
export function updateLink(current: Json | undefined, from: { url: string; label: string }, to: LinkInput, stamp: Json): Json {
  const list = elements(current);
  const at = list.findIndex((e) => isLink(e, from.url, from.label));
  if (at < 0) throw badRequest(`Failed to update the link '${from.url}' with label '${from.label}'. The link does not exist`);
  if (list.some((e, i) => i !== at && isLink(e, to.url, to.label))) throw alreadyThere(to);
  const replaced: Json = { url: to.url, description: to.label, createStamp: list[at]!.createStamp, updateStamp: stamp, ...settingsOf(to) };
  return { ...current, elements: list.map((e, i) => (i === at ? replaced : e)) };
}

/** removeLink: every element with the url (and the label, when one is given). */
export function removeLink(current: Json | undefined, url: string, label: string | null): Json {
  return { ...current, elements: elements(current).filter((e) => !(label === null ? e.url === url : isLink(e, url, label))) };
}

/** upsertLink: the link with this url and label replaced (as updateLink does), or added when there is none. */
export function upsertLink(current: Json | undefined, link: LinkInput, stamp: Json): Json {
  return elements(current).some((e) => isLink(e, link.url, link.label)) ? updateLink(current, link, link, stamp) : addLink(current, link, stamp);
}
