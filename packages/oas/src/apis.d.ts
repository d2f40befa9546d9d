/** One API of the repository, as `redocly.yaml` declares it; all paths absolute. */
export interface ApiEntry {
  /** The key in `redocly.yaml` (`central`, `element`, `objects`). */
  name: string;
  /** The source root document, `spec/<api>/openapi.yaml`. */
  root: string;
  /** The bundled YAML, `dist/<api>.yaml`. */
  bundle: string;
  /** The bundled JSON, `dist/<api>.json`. */
  bundleJson: string;
}

/** Absolute path of the repository root. */
export declare const root: string;

/**
 * The APIs declared in `<dir>/redocly.yaml` (this repository's by default).
 * @throws {Error} when `<dir>/redocly.yaml` is missing or is not YAML
 */
export declare function apis(dir?: string): ApiEntry[];
