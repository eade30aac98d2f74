/** A catalog query's WHERE clause built from the filters an input gives, with its named parameters. */

/** The clauses of one query's WHERE (joined with AND) and the parameters they name. */
export class SqlWhere {
  /** @param clauses the clauses every query has; `params` the parameters they name. */
  constructor(
    private readonly clauses: string[] = [],
    readonly params: Record<string, unknown> = {},
  ) {}

  /**
   * Adds `clause`; with `name`, only when `value` is given (not undefined), and binds it as
   * `@name`: a filter the input leaves out adds nothing.
   */
  add(clause: string, name?: string, value?: unknown): this {
    if (name !== undefined) {
      if (value === undefined) return this;
      this.params[name] = value;
    }
    this.clauses.push(clause);
    return this;
  }

  /** The clauses joined with AND (`1` when there is none). */
  get sql(): string {
    return this.clauses.length === 0 ? "1" : this.clauses.join(" AND ");
  }
}
