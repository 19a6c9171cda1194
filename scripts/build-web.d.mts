// Types of scripts/build-web.mjs, for the TypeScript that imports it (the console benchmark).
export declare function buildWeb(): Promise<void>;
