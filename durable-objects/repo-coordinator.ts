/**
 * @module durable-objects/repo-coordinator
 *
 * RepoCoordinator: one Durable Object per repo, owning its index jobs.
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../worker/env";

export class RepoCoordinator extends DurableObject<Env> {}
