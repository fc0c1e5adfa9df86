/// <reference types="@rsbuild/core/types" />

/** `import('./pt-BR.json?full')`: the whole locale as a module of its own (src/i18n/runtime.ts). */
declare module '*.json?full' {
  const messages: Record<string, unknown>;
  export default messages;
}
