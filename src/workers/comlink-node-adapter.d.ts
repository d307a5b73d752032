// comlink ships its Node adapter without a declaration for the .mjs path we import.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink';
  export default function nodeEndpoint(port: unknown): Endpoint;
}
