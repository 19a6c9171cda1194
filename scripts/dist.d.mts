// Types of scripts/dist.mjs, for the TypeScript that imports it (the benchmark).
export declare const ROOT: string;
export declare const DIST: string;
export declare function buildDist(): Promise<void>;
export declare function distState(): 'fresh' | 'stale' | 'missing';
