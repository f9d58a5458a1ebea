/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Build id baked in at build time; /version.json of the deployed build carries the same value. */
  readonly VITE_BUILD_ID: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
