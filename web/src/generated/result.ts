// Generated from schemas/result.schema.json by scripts/generate_types.sh (json-schema-to-typescript): do not edit.

/**
 * A result document (sparkforensics.result/1; docs/result-schema.md): one measured run, as store ingest writes it and as a benchmark may write it for store ingest --result. It names itself by `schema`, not kind and schemaVersion: its canonical JSON is its id, so a new field would change every id.
 */
export interface ResultDocument {
  schema: "sparkforensics.result/1";
  subject: string;
  revision?: {
    tree?: string;
    parents?: string[];
    benchmarkTree?: string;
    clean?: boolean;
  };
  /**
   * strings; numbers and booleans are accepted and kept as their JSON text; role is the variant role
   */
  parameters?: {
    [k: string]: string | number | boolean;
  };
  /**
   * where it ran: cluster, sparkVersion, executorShape, ...
   */
  environment?: {
    [k: string]: string | number | boolean;
  };
  procedure?: {
    runKey?: string;
    /**
     * attempts of one round are paired across sides
     */
    round?: number | null;
    /**
     * execution position within the run
     */
    slot?: number | null;
  };
  status?: "ok" | "partial" | "censored" | "error" | "skipped";
  origin?: string;
  /**
   * each name once (the reader refuses a duplicate; JSON Schema cannot say so)
   */
  quantities: Quantity[];
}
export interface Quantity {
  name: string;
  value: number;
  unit: string;
  /**
   * which way is better; default lower
   */
  direction?: "lower" | "higher" | "none";
  /**
   * compared exactly; default false
   */
  deterministic?: boolean;
}
