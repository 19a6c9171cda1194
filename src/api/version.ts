import pkg from '../../package.json' with { type: 'json' };

/** Almanac's own release (package.json), as every surface reports it. */
export const ALMANAC_VERSION: string = pkg.version;
