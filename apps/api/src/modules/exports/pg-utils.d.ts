/** node-postgres' own parameter serialisation (used to inline the parameters of a COPY statement). */
declare module 'pg/lib/utils' {
  export function prepareValue(value: unknown): string | Buffer | null | undefined;
}
