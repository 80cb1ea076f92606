/** What the command line adds to a config file: each section's loader reads its own flags. */
export interface LoadProfileOptions {
  /** Path of the config file (JSON or YAML). Without it, a profile with no collections. */
  readonly configPath?: string;
  /** Base URL from the command line; wins over `baseUrl` in the file. */
  readonly baseUrl?: string;
  /** Where `{ "env": NAME }` secrets are read. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** `--read-only` from the command line; ORed with `safety.readOnly`. */
  readonly readOnly?: boolean;
  /** `--proxy` from the command line: send every request through this HTTP proxy. */
  readonly proxy?: string;
  /** `--node` from the command line: more base URLs of the deployment, after the config's. */
  readonly nodes?: readonly string[];
  /** `--ca` from the command line: a PEM file of CAs to trust (wins over `http.ca`). */
  readonly ca?: string;
  /** `--no-destructive` from the command line; ANDed with `safety.destructive`. */
  readonly destructive?: boolean;
  /** `--plain-http-url` from the command line; wins over `plainHttpUrl`. */
  readonly plainHttpUrl?: string;
  /** `--openapi` from the command line: the API's OpenAPI document; wins over `openapi`. */
  readonly openapi?: string;
}
