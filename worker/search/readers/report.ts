/**
 * @module worker/search/readers/report
 *
 * The report reader: a pasted bug report (more than LONG_REPORT_TERMS terms, or at least
 * MIN_SHAPED_REPORT_TERMS in a text shaped like a report, hasReportShape). Its answer is code,
 * not docs; its own aliases and placeholders name nothing of the repo; its title says what
 * matters; its traceback, TypeError and receivers are evidence; it names many things in passing,
 * so the per-file cap stands and the gate reads its scattered evidence as no sign of absence.
 */
import { CHANNEL_WEIGHTS, LONG_REPORT_TERMS, MIN_SHAPED_REPORT_TERMS } from "../ranking/weights";
import { messagePhrases } from "../error-messages";
import { signatureCallee } from "../stack-frames";
import { codeNames } from "./code-marks";
import { readWords, termCounts, type TextFacts } from "./reading";
import { hasReportShape, hyphenJoined, receiverMembers, reporterLocals, reportTitle } from "./report-words";
import type { QueryReader } from "./reader";
import { ruleOn } from "../rules";

export const reportReader: QueryReader = {
  name: "report",
  accepts: (f) => f.terms.length > LONG_REPORT_TERMS || (f.terms.length >= MIN_SHAPED_REPORT_TERMS && hasReportShape(f.raw)),
  read(f: TextFacts) {
    const words = readWords(f, {
      locals: reporterLocals(f.full),
      compounds: (terms) => (ruleOn("report.hyphen-compounds") ? hyphenJoined(f.text).filter((j) => !terms.includes(j)) : []),
      twoPartModules: true,
    });
    const callee = signatureCallee(f.raw);
    const receivers = receiverMembers(f.full);
    const query = {
      text: f.text,
      ...words,
      // In a pasted bug report, test words are incidental ("pytest 5.3", "in my test ...") and the fix is in the code.
      mentionsTests: false,
      isReport: true,
      titleNames: codeNames(reportTitle(f.text)).map((n) => n.toLowerCase()),
      fewestDefinitionsFirst: true,
      callee,
      phrases: messagePhrases(f.raw),
      qualified: f.qualified,
      receivers,
      functionWords: 0,
      spelledNames: [],
    };
    return {
      reader: "report",
      query,
      terms: { counts: termCounts(f.raw), selectionCodeTerms: new Set(query.codeTerms), weightCodeTerms: new Set(query.codeTerms) },
      fusion: CHANNEL_WEIGHTS,
      evidence: { frames: query.frames, callee, options: query.optionFlags, messages: query.phrases, entryPoints: false },
      stages: {
        coverage: { report: true },
        support: { spared: [], codeInDocs: false },
        fileEvidence: true,
        trace: true,
        qualified: false,
        receivers,
        defect: { prose: false },
      },
      capExempt: [],
      gate: { isReport: true, entryQuestion: false, functionWords: 0, spelledNames: [] },
      includeTests: false,
    };
  },
};
