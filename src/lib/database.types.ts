// Placeholder: this file is replaced by the generator (`supabase gen types typescript`-style output from the
// live schema). Until then every table and function is untyped; code written against it must also compile
// once the real `Database` type lands.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Database = any
