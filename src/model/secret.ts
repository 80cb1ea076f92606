/** A secret resolved from the environment. `envName` is what curl commands print. */
export interface Secret {
  readonly envName: string;
  readonly value: string;
}
