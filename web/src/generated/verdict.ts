// Generated from schemas/verdict.schema.json by scripts/generate_types.sh (json-schema-to-typescript): do not edit.

export type Verdict = "improved" | "regressed" | "changed" | "no-change-detected" | "indeterminate";

/**
 * The verdict document (verdict ... --format json; docs/comparator.md): what the comparator found. Keys are sorted.
 */
export interface VerdictDocument {
  kind: "sparkforensics.verdict";
  schemaVersion: 1;
  /**
   * batch mode
   */
  batchTarget?: string;
  caveats: string[];
  evaluations: Evaluation[];
  failedInvariants: {
    detail: string;
    name: string;
    /**
     * "" when it affects the whole run
     */
    unit: string;
  }[];
  identityPolicy: {
    schema: string;
    version: number;
  };
  method: {
    config: {
      duplicates: "reject" | "mean";
      k: number;
      minEffect: number;
      minPoints: number;
      ordering: "ancestry-or-native" | "ancestry" | "native";
      provisionalRelativeNoise: number | null;
      referenceStatuses: string[];
      window: number;
    };
    name: "dispersion-scaled" | "paired-ratio";
    version: number;
  };
  missing: {
    fingerprint: string;
    label: string;
    lastResultId: string;
  }[];
  mode: "history" | "run" | "batch";
  /**
   * run mode
   */
  run?: {
    baseline: string;
    coordinate: string;
    localOnly: boolean;
    profile: "revisions" | "variants" | "environments";
    runKey: string;
    target: string;
    units: string[];
  };
}
export interface Evaluation {
  boundaries: {
    at: string;
    kind: string;
    points: number;
    reason: string;
  }[];
  caveats: string[];
  detail: string;
  exclusions: {
    reason: string;
    resultId: string;
  }[];
  exclusionsNotListed: number;
  ordering: "ancestry" | "native" | "unknown" | "paired-rounds";
  outcome: {
    effect: {
      measure: string;
      value: number | null;
    };
    evidenceCount: number;
    /**
     * paired-ratio: 95% interval of the ratio, low and high
     */
    interval95: [number, number] | null;
    noise: {
      provisional: boolean;
      source: string;
      value: number | null;
    };
    referenceEstimate: number | null;
    targetEstimate: number | null;
    threshold: number | null;
  };
  /**
   * run mode, by round
   */
  pairs: {
    baseline: number;
    baselineResult: string;
    round: number;
    target: number;
    targetResult: string;
  }[];
  reason: string;
  /**
   * history: nearest first
   */
  reference: PointRef[];
  series: {
    deterministic: boolean;
    direction: string;
    estimator: string;
    fingerprint: string;
    identity: {
      [k: string]: string;
    };
    label: string;
    quantity: string;
    unit: string;
  };
  /**
   * history mode
   */
  target: PointRef | null;
  /**
   * run mode: the comparison unit
   */
  unit?: string;
  verdict: Verdict;
}
export interface PointRef {
  /**
   * generations back from the target (ancestry order)
   */
  ancestryDistance?: number;
  /**
   * mappings that joined this point to the series
   */
  continuity?: string[];
  nativeOrder: number;
  resultId: string;
  revision: string;
  status: string;
  value: number | null;
}
