export const formatDate = (millis: number | null | undefined): string =>
  millis === null || millis === undefined ? '—' : new Date(millis).toISOString().slice(0, 10);

export const formatDateTime = (millis: number | null | undefined): string =>
  millis === null || millis === undefined ? '—' : new Date(millis).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';

export const formatBytes = (bytes: number): string => {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
};

export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** The dataset name and platform out of urn:li:dataset:(urn:li:dataPlatform:<p>,<name>,<env>). */
export function datasetParts(urn: string): { platform: string; name: string; env: string } {
  const m = /^urn:li:dataset:\(urn:li:dataPlatform:([^,]+),(.*),([^,)]+)\)$/.exec(urn);
  return m ? { platform: m[1]!, name: m[2]!, env: m[3]! } : { platform: '', name: urn, env: '' };
}

export const datasetHref = (urn: string): string => `#/dataset/${encodeURIComponent(urn)}`;

/** What the console calls a dataset everywhere (list, page title, links): its properties' name, else the urn's. */
export const datasetTitle = (d: { name: string; properties?: { name?: string | null } | null }): string => d.properties?.name || d.name;

/** Whole days from now to `millis`, negative once past. */
export const daysFromNow = (millis: number): number => Math.ceil((millis - Date.now()) / 86_400_000);

/** The list filtered by one facet value: where owner, tag, term and domain names link to. */
export const facetHref = (field: string, value: string): string => `#/datasets?${new URLSearchParams({ [field]: value })}`;
