/**
 * `verifyFilledTest` on small JUnit 5 + Mockito files with a stand-in index (a set of names) and a
 * stand-in repo (classes under com.acme): what counts as defined locally, java.lang, an outside
 * (JUnit, Mockito, JDK) import, or a same-package / in-repo reference.
 */
import { describe, expect, it } from "vitest";
import { verifyFilledTest } from "./fill-verify";

const index = (names: string[]) => async (asked: string[]) => new Set(asked.filter((n) => names.includes(n)));
const inRepo = (m: string) => m.startsWith("com.acme.");

describe("verifyFilledTest (Java)", () => {
  it("accepts locals, java.lang, JUnit/Mockito static and wildcard imports and same-package symbols", async () => {
    const test = [
      "package com.acme.billing;",
      "import static org.junit.jupiter.api.Assertions.*;",
      "import static org.mockito.Mockito.when;",
      "import java.math.BigDecimal;",
      "import java.util.List;",
      "import com.acme.audit.AuditLog;",
      "import org.junit.jupiter.api.Test;",
      "class InvoiceFormatterTest {",
      "    private final AuditLog log = org.mockito.Mockito.mock(AuditLog.class);",
      "    @Test",
      "    void formats() throws Exception {",
      '        var subject = new InvoiceFormatter("EUR");',
      '        Invoice invoice = new Invoice("N-1", "Ada", BigDecimal.TEN);',
      "        String out = subject.format(invoice).trim();",
      "        for (String s : List.of(out)) assertEquals(s.length(), out.length());",
      "        when(log.record(invoice)).thenReturn(true);",
      '        assertThrows(IllegalArgumentException.class, () -> subject.format(new Invoice(null, "x", BigDecimal.ONE)));',
      "        try { helper(1); } catch (RuntimeException e) { fail(e.getMessage()); }",
      "    }",
      "    private int helper(int n) { return n; }",
      "}",
    ].join("\n");
    expect(await verifyFilledTest("java", test, index(["InvoiceFormatter", "Invoice", "format", "AuditLog", "record"]), inRepo)).toEqual({ ok: true });
  });

  it("reports an in-repo import the repo lacks, an unknown same-package type and an unknown method", async () => {
    const test = [
      "package com.acme.billing;",
      "import com.acme.audit.Nope;",
      "class T {",
      "    void t() {",
      '        InvoiceFormatter subject = new InvoiceFormatter("EUR");',
      "        subject.formatAll(new Receipt());",
      "    }",
      "}",
    ].join("\n");
    expect(await verifyFilledTest("java", test, index(["InvoiceFormatter"]), inRepo)).toEqual({
      ok: false,
      syntaxErrors: [],
      unresolved: [
        { name: "Nope", line: 2 },
        { name: "Receipt", line: 6 },
        { name: "formatAll", line: 6 },
      ],
    });
  });

  it("reports syntax errors with their lines", async () => {
    const broken = await verifyFilledTest("java", "class T {\n  void t() {\n    f(1;\n", index([]), inRepo);
    expect(broken.ok).toBe(false);
    expect(broken.ok === false && broken.syntaxErrors.length).toBeGreaterThan(0);
  });
});
