// node-forge's modules one by one (pkcs12.ts): `node-forge/lib/forge` is the object every module registers on.
declare module 'node-forge/lib/forge' {
  import type forge from 'node-forge';

  const core: typeof forge;
  export default core;
}
