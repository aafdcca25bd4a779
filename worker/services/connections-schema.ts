/**
 * @module worker/services/connections-schema
 *
 * The wire shapes of connections (`/api/connections`, docs/connections.md) as zod schemas, with
 * the types inferred from them. Its own module, importing only zod and the provider names, so
 * the web page's connections panel types what it reads with the server's own types.
 */
import { z } from "zod";
import { PROVIDERS } from "../connections/types";

const glob = z.string().min(1).max(200);

/** Input of `createConnection` (`POST /api/connections`). */
export const createConnectionInput = z.object({
  provider: z.enum(PROVIDERS).describe('"github" or "gitlab".'),
  owner: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\w.-]+(\/[\w.-]+)*$/, "an organisation, user or group path such as acme or acme/platform")
    .describe("GitHub organisation or user; GitLab group (subgroups with /) or user."),
  token: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe(
      "Code-host token (GitHub: repo read; GitLab: read_api + read_repository). Stored encrypted, never returned. Without one, public repositories only.",
    ),
  include: z
    .array(glob)
    .max(100)
    .optional()
    .describe('Globs a repo must match (picomatch; with a "/" against owner/name, else against the name). Default: every repo.'),
  exclude: z.array(glob).max(100).optional().describe("Globs that drop a repo (win over include)."),
  forks: z.boolean().optional().describe("Include forks (default false)."),
  archived: z.boolean().optional().describe("Include archived repositories (default false)."),
  refs: z
    .array(z.string().min(1).max(255))
    .max(50)
    .optional()
    .describe(
      'Refs every registered repo tracks besides its default branch (docs/refs.md): full names or globs; a short name is a branch ("release/*" -> refs/heads/release/*), tags are written in full ("refs/tags/v2.*"). At most MAX_REFS_PER_REPO per repo.',
    ),
  baseUrl: z
    .string()
    .url()
    .max(2048)
    .optional()
    .describe(
      "API base: GitHub Enterprise Server https://ghe.example.com/api/v3, self-managed GitLab https://gitlab.example.com. Default: api.github.com, gitlab.com.",
    ),
  gracePeriodHours: z
    .number()
    .int()
    .min(0)
    .max(90 * 24)
    .optional()
    .describe("Hours a repo gone or excluded upstream keeps serving before it is removed (default 72)."),
});
/** A validated `POST /api/connections` body. */
export type CreateConnectionInput = z.infer<typeof createConnectionInput>;

const countsSchema = z.object({
  total: z.number().int(),
  registered: z.number().int(),
  waiting: z.number().int().describe("Listed but not registered yet (at most 25 per sync; the rest on the next ticks)."),
  missing: z
    .number()
    .int()
    .describe(
      "Gone, no longer visible to the connection's token, or excluded upstream: hidden from every caller at once, data removed after the grace period.",
    ),
  skipped: z.number().int().describe("Not registered: the repo id is taken by another repo, or it was deleted by an admin."),
});

/** A connection as the API shows it (never the token or the webhook secret). Times in ms since epoch. */
export const connectionSchema = z
  .object({
    id: z.string(),
    provider: z.enum(PROVIDERS),
    owner: z.string(),
    ownerKind: z.enum(["org", "user", "group"]),
    baseUrl: z.string(),
    include: z.array(z.string()),
    exclude: z.array(z.string()),
    forks: z.boolean(),
    archived: z.boolean(),
    refs: z.array(z.string()).describe("Ref patterns every repo it registers tracks, as full names or globs."),
    gracePeriodHours: z.number(),
    hasToken: z.boolean(),
    createdAt: z.number().int(),
    lastSyncedAt: z.number().int().nullable(),
    lastError: z.string().nullable().describe("Why the last sync failed; null after a good one."),
    repos: countsSchema,
  })
  .meta({ id: "Connection" });
export type ConnectionView = z.infer<typeof connectionSchema>;

/** One upstream repository of a connection and its state. */
export const connectionRepoSchema = z.object({
  fullName: z.string(),
  repo: z.string().nullable().describe("The repo id it is indexed as."),
  state: z.enum(["registered", "waiting", "missing", "skipped"]),
  missingSince: z.number().int().nullable(),
  missingReason: z.string().nullable().describe("deleted | excluded | fork | archived"),
  serving: z
    .boolean()
    .describe(
      "Whether callers can read it now. A missing repo stops serving at once; its index is kept until removeAt, so access coming back restores it without re-indexing.",
    ),
  removeAt: z.number().int().nullable().describe("When a missing repo's kept index is removed (ms)."),
  skipReason: z.string().nullable().describe("id_taken | deleted_by_admin | refused_url | no_usable_id"),
  readersError: z
    .string()
    .nullable()
    .describe("Why the last sync could not list who may read this private or internal repo: it is hidden from everyone until a sync can (docs/auth.md)."),
});

/** `GET /api/connections/{id}`: the connection and each of its repos. */
export const connectionDetailSchema = connectionSchema.extend({ repoList: z.array(connectionRepoSchema) });

/** What one sync did (worker/connections/sync.ts SyncReport). */
export const syncReportSchema = z.object({
  listed: z.number().int(),
  added: z.array(z.string()),
  registered: z.array(z.string()),
  waiting: z.number().int(),
  marked: z.array(z.object({ repo: z.string().nullable(), fullName: z.string(), reason: z.string() })),
  unmarked: z.array(z.string()),
  removed: z.array(z.string()),
  skipped: z.array(z.object({ fullName: z.string(), reason: z.string() })),
  readers: z
    .object({
      proved: z.array(z.string()).describe("Private or internal repos whose readers the host listed this sync."),
      unprovable: z.array(z.object({ repo: z.string(), reason: z.string() })).describe("Hidden from everyone: the host would not list their readers."),
    })
    .optional()
    .describe("Permission sync (docs/auth.md): absent when the sync stopped before it."),
});

/** What `POST /api/connections` answers: the connection, its webhook secret (this once) and the first sync. */
export const connectionCreatedSchema = z.object({
  connection: connectionSchema,
  webhook: z.object({
    secret: z.string().describe("Shown only now: the organisation's or group's webhook secret."),
    github: z.object({ payloadUrl: z.string(), contentType: z.literal("application/json"), events: z.array(z.string()) }).nullable(),
    gitlab: z.object({ url: z.string(), secretToken: z.string(), trigger: z.string() }).nullable(),
  }),
  sync: syncReportSchema,
});
export type ConnectionCreated = z.infer<typeof connectionCreatedSchema>;

/** What `POST /api/connections/{id}/sync` answers. */
export const syncResultSchema = z.object({ connection: connectionSchema, sync: syncReportSchema });

/** What `DELETE /api/connections/{id}` answers: the repos removed with it, or kept (`?keepRepos=true`). */
export const deleteConnectionResultSchema = z.object({ deleted: z.string(), removedRepos: z.array(z.string()), keptRepos: z.array(z.string()) });

/** `GET /api/connections/{id}`. */
export type ConnectionDetail = z.infer<typeof connectionDetailSchema>;
/** `POST /api/connections/{id}/sync`. */
export type SyncResult = z.infer<typeof syncResultSchema>;
/** `DELETE /api/connections/{id}`. */
export type DeleteConnectionResult = z.infer<typeof deleteConnectionResultSchema>;
