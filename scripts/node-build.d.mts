// Types of scripts/node-build.mjs, for the TypeScript that imports it (tests).
export const NODE_BUILD_DIRECTORY: string;
export function buildNode(root: string): Promise<number>;
export function nodeBuildIsFresh(root: string): boolean;
