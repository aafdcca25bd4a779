/**
 * @module worker/search/d1-coalesce
 *
 * A `D1Database` view that sends the reads issued together in one round trip. The channels of
 * a search run concurrently and each sends its own statements (`.all()`, `.first()` or a
 * `batch`); every round trip costs far more than the small indexed reads themselves (locally
 * about 1 ms of CPU in workerd per call, measured; on Cloudflare a network hop each). Through
 * this view, everything queued before the next macrotask goes out as one `db.batch()`, and each
 * caller gets its own results, the same rows it would have read alone.
 *
 * Only for reads: a D1 batch runs as one transaction, so one failing statement fails the whole
 * batch; the view then re-runs each caller's statements on their own, so a bad statement fails
 * only its caller (a search channel stays isolated from the others).
 */

/** Marks a view, so wrapping one again returns it (its reads keep sharing round trips). */
const COALESCING = Symbol("coalescingD1");

interface Pending {
  statements: D1PreparedStatement[];
  resolve: (results: D1Result[]) => void;
  reject: (err: unknown) => void;
}

/** A statement of the view: `bind` keeps it in the view; reads are queued. */
class CoalescedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly enqueue: (statements: D1PreparedStatement[]) => Promise<D1Result[]>,
  ) {}

  bind(...values: unknown[]): CoalescedStatement {
    return new CoalescedStatement(this.inner.bind(...values), this.enqueue);
  }

  async all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    const [r] = await this.enqueue([this.inner]);
    return r as D1Result<T>;
  }

  async run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.all<T>();
  }

  async first<T = Record<string, unknown>>(column?: string): Promise<T | null> {
    const [r] = await this.enqueue([this.inner]);
    const row = (r.results[0] ?? null) as Record<string, unknown> | null;
    if (column === undefined) return row as T | null;
    return (row?.[column] ?? null) as T | null;
  }

  raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[]> {
    return options?.columnNames ? (this.inner.raw<T>({ columnNames: true }) as unknown as Promise<T[]>) : this.inner.raw<T>();
  }
}

/**
 * Wraps `db` for reads that may share a round trip; see the module note. `prepare`, `batch` and
 * the statements' `all`/`first`/`run` are coalesced; `raw`, `exec` and sessions go
 * straight to `db`.
 */
export function coalescingD1(db: D1Database): D1Database {
  if ((db as { [COALESCING]?: true })[COALESCING]) return db;
  let queue: Pending[] = [];
  let scheduled = false;

  async function flush(): Promise<void> {
    const jobs = queue;
    queue = [];
    scheduled = false;
    if (jobs.length === 1) {
      await db.batch(jobs[0].statements).then(jobs[0].resolve, jobs[0].reject);
      return;
    }
    let results: D1Result[];
    try {
      results = await db.batch(jobs.flatMap((j) => j.statements));
    } catch {
      // One statement failed the shared transaction: give each caller its own outcome.
      await Promise.all(jobs.map((j) => db.batch(j.statements).then(j.resolve, j.reject)));
      return;
    }
    let at = 0;
    for (const j of jobs) {
      j.resolve(results.slice(at, at + j.statements.length));
      at += j.statements.length;
    }
  }

  function enqueue(statements: D1PreparedStatement[]): Promise<D1Result[]> {
    if (!statements.length) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      queue.push({ statements, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        // A macrotask: every channel reaches its first read within the current one.
        setTimeout(() => void flush(), 0);
      }
    });
  }

  const unwrap = (s: D1PreparedStatement): D1PreparedStatement => {
    const c = s as unknown;
    return c instanceof CoalescedStatement ? c.inner : s;
  };
  const view = {
    [COALESCING]: true,
    prepare: (query: string) => new CoalescedStatement(db.prepare(query), enqueue),
    batch: <T = unknown>(statements: D1PreparedStatement[]) => enqueue(statements.map(unwrap)) as Promise<D1Result<T>[]>,
    exec: (query: string) => db.exec(query),
    withSession: (constraintOrBookmark?: string) => db.withSession(constraintOrBookmark),
  };
  return view as unknown as D1Database;
}
