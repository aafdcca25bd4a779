/**
 * Keyset (cursor) pagination. A cursor encodes the sort key of the last row of a page, so the
 * next page is `WHERE (created_at, id) < (cursor.createdAt, cursor.id)`; unlike OFFSET it
 * stays fast and stable while rows are inserted.
 */
export interface PageCursor {
  createdAt: string;
  id: number;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** Encodes a cursor as opaque base64url JSON. */
export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

/** Decodes a cursor from a query string; returns null for a missing or tampered cursor. */
export function decodeCursor(raw: string | null): PageCursor | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    if (typeof parsed.createdAt !== "string" || typeof parsed.id !== "number") return null;
    return parsed as PageCursor;
  } catch {
    return null;
  }
}

/** Clamps a requested page size to 1..MAX_PAGE_SIZE, defaulting to DEFAULT_PAGE_SIZE. */
export function clampLimit(raw: string | null): number {
  const n = Number(raw ?? DEFAULT_PAGE_SIZE);
  if (!Number.isFinite(n) || n < 1) return DEFAULT_PAGE_SIZE;
  return Math.min(Math.floor(n), MAX_PAGE_SIZE);
}
