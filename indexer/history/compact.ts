/**
 * @module indexer/history/compact
 *
 * Places a diff's change groups where git places them, so that stored hunks (and hence blame
 * and `log -L` over them) agree with git when a group could sit at several positions (an added
 * function bordered by blank lines, a repeated line). A reimplementation of git's
 * `xdl_change_compact` (xdiff/xdiffi.c): slide each group up as far as it matches, then down as
 * far as it matches (merging groups it bumps into); then align it with a changed group of the
 * other side if it can, else pick the position by git's indent heuristic (Michael Haggerty's
 * weights, on by default since git 2.14, used by `git diff` and `git blame` alike).
 */

/** One side of a diff: its lines and, per line, whether it is changed (index + 1; both ends 0). */
interface Side {
  lines: string[];
  changed: Uint8Array;
}

/** A run of changed lines [start, end) of one side; empty (start = end) between unchanged lines. */
interface Group {
  start: number;
  end: number;
}

// git's constants (xdiff/xdiffi.c): caps that keep the scan bounded, and the heuristic's weights.
const MAX_INDENT = 200;
const MAX_BLANKS = 20;
const MAX_SLIDING = 100;
const START_OF_FILE_PENALTY = 1;
const END_OF_FILE_PENALTY = 21;
const TOTAL_BLANK_WEIGHT = -30;
const POST_BLANK_WEIGHT = 6;
const RELATIVE_INDENT_PENALTY = -4;
const RELATIVE_INDENT_WITH_BLANK_PENALTY = 10;
const RELATIVE_OUTDENT_PENALTY = 24;
const RELATIVE_OUTDENT_WITH_BLANK_PENALTY = 17;
const RELATIVE_DEDENT_PENALTY = 23;
const RELATIVE_DEDENT_WITH_BLANK_PENALTY = 17;
const INDENT_WEIGHT = 60;

const isChanged = (s: Side, i: number): boolean => s.changed[i + 1] === 1;
const mark = (s: Side, i: number, v: 0 | 1): void => {
  s.changed[i + 1] = v;
};

function firstGroup(s: Side): Group {
  const g = { start: 0, end: 0 };
  while (isChanged(s, g.end)) g.end++;
  return g;
}

function nextGroup(s: Side, g: Group): boolean {
  if (g.end === s.lines.length) return false;
  g.start = g.end + 1;
  g.end = g.start;
  while (isChanged(s, g.end)) g.end++;
  return true;
}

function previousGroup(s: Side, g: Group): boolean {
  if (g.start === 0) return false;
  g.end = g.start - 1;
  g.start = g.end;
  while (isChanged(s, g.start - 1)) g.start--;
  return true;
}

function slideDown(s: Side, g: Group): boolean {
  if (g.end >= s.lines.length || s.lines[g.start] !== s.lines[g.end]) return false;
  mark(s, g.start++, 0);
  mark(s, g.end++, 1);
  while (isChanged(s, g.end)) g.end++;
  return true;
}

function slideUp(s: Side, g: Group): boolean {
  if (g.start === 0 || s.lines[g.start - 1] !== s.lines[g.end - 1]) return false;
  mark(s, --g.start, 1);
  mark(s, --g.end, 0);
  while (isChanged(s, g.start - 1)) g.start--;
  return true;
}

/** Columns of leading whitespace (a tab to the next multiple of 8), capped; -1 for a blank line. */
function indentOf(line: string): number {
  let n = 0;
  for (const c of line) {
    if (c === " ") n += 1;
    else if (c === "\t") n += 8 - (n % 8);
    else if (c !== "\r") return n; // git's isspace(): space, tab, CR (and the newline we split off)
    if (n >= MAX_INDENT) return MAX_INDENT;
  }
  return -1;
}

/** The badness of splitting `lines` just above line `split`, added into `score`. */
function addSplitScore(lines: string[], split: number, score: { indent: number; penalty: number }): void {
  const endOfFile = split >= lines.length;
  const indentHere = endOfFile ? -1 : indentOf(lines[split]!);
  let preBlank = 0;
  let preIndent = -1;
  for (let i = split - 1; i >= 0; i--) {
    preIndent = indentOf(lines[i]!);
    if (preIndent !== -1) break;
    if (++preBlank === MAX_BLANKS) {
      preIndent = 0;
      break;
    }
  }
  let postBlankAfter = 0;
  let postIndent = -1;
  for (let i = split + 1; i < lines.length; i++) {
    postIndent = indentOf(lines[i]!);
    if (postIndent !== -1) break;
    if (++postBlankAfter === MAX_BLANKS) {
      postIndent = 0;
      break;
    }
  }
  if (preIndent === -1 && preBlank === 0) score.penalty += START_OF_FILE_PENALTY;
  if (endOfFile) score.penalty += END_OF_FILE_PENALTY;
  const postBlank = indentHere === -1 ? 1 + postBlankAfter : 0;
  const totalBlank = preBlank + postBlank;
  score.penalty += TOTAL_BLANK_WEIGHT * totalBlank + POST_BLANK_WEIGHT * postBlank;
  const indent = indentHere !== -1 ? indentHere : postIndent;
  const anyBlanks = totalBlank !== 0;
  score.indent += indent;
  if (indent === -1 || preIndent === -1 || indent === preIndent) return;
  if (indent > preIndent) score.penalty += anyBlanks ? RELATIVE_INDENT_WITH_BLANK_PENALTY : RELATIVE_INDENT_PENALTY;
  else if (postIndent !== -1 && postIndent > indent) score.penalty += anyBlanks ? RELATIVE_OUTDENT_WITH_BLANK_PENALTY : RELATIVE_OUTDENT_PENALTY;
  else score.penalty += anyBlanks ? RELATIVE_DEDENT_WITH_BLANK_PENALTY : RELATIVE_DEDENT_PENALTY;
}

/** The group's end (within its sliding range) with the best indent-heuristic score. */
function bestEnd(s: Side, g: Group, size: number, earliestEnd: number): number {
  let best = -1;
  let bestScore = { indent: 0, penalty: 0 };
  for (let end = Math.max(earliestEnd, g.end - size - 1, g.end - MAX_SLIDING); end <= g.end; end++) {
    const score = { indent: 0, penalty: 0 };
    addSplitScore(s.lines, end, score);
    addSplitScore(s.lines, end - size, score);
    const cmp = INDENT_WEIGHT * Math.sign(score.indent - bestScore.indent) + score.penalty - bestScore.penalty;
    if (best === -1 || cmp <= 0) {
      best = end;
      bestScore = score;
    }
  }
  return best;
}

/** Moves the change groups of `s` (git's `xdl_change_compact(s, o)`), keeping `o` in step. */
function compactSide(s: Side, o: Side): void {
  const g = firstGroup(s);
  const go = firstGroup(o);
  const step = (ok: boolean) => {
    if (!ok) throw new Error("compact: the two sides' groups fell out of step");
  };
  for (;;) {
    if (g.end !== g.start) {
      let size: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      // Slide up then down as far as possible; a group that merged with a neighbour goes again.
      do {
        size = g.end - g.start;
        endMatchingOther = -1;
        while (slideUp(s, g)) step(previousGroup(o, go));
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        while (slideDown(s, g)) {
          step(nextGroup(o, go));
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (size !== g.end - g.start);
      if (g.end === earliestEnd) {
        // It cannot move.
      } else if (endMatchingOther !== -1) {
        // Line up with the last changed group of the other side it can face (a modification).
        while (go.end === go.start) {
          step(slideUp(s, g));
          step(previousGroup(o, go));
        }
      } else {
        const target = bestEnd(s, g, size, earliestEnd);
        while (g.end > target) {
          step(slideUp(s, g));
          step(previousGroup(o, go));
        }
      }
    }
    if (!nextGroup(s, g)) break;
    step(nextGroup(o, go));
  }
}

/**
 * Hunks [os, oe, ns, ne] (0-based, end exclusive, in order) placed as git places them, from any
 * correct diff of the same lines (e.g. a Myers diff that chose another of the equal-cost
 * positions). Throws only on hunks that do not describe a diff of these lines.
 */
export function compactHunks(
  oldLines: string[],
  newLines: string[],
  hunks: Iterable<readonly [number, number, number, number]>,
): [number, number, number, number][] {
  const a: Side = { lines: oldLines, changed: new Uint8Array(oldLines.length + 2) };
  const b: Side = { lines: newLines, changed: new Uint8Array(newLines.length + 2) };
  for (const [os, oe, ns, ne] of hunks) {
    for (let i = os; i < oe; i++) mark(a, i, 1);
    for (let i = ns; i < ne; i++) mark(b, i, 1);
  }
  // git compacts the old side against the new, then the new against the old.
  compactSide(a, b);
  compactSide(b, a);
  const out: [number, number, number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < oldLines.length || j < newLines.length) {
    if (!isChanged(a, i) && !isChanged(b, j)) {
      i++;
      j++;
      continue;
    }
    const os = i;
    const ns = j;
    while (isChanged(a, i)) i++;
    while (isChanged(b, j)) j++;
    out.push([os, i, ns, j]);
  }
  return out;
}
