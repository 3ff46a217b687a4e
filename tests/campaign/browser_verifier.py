"""Run the browser verifier (adjudicator/campaign/verifier.html) in the real headless
chromium on a record, and read back its verdict."""

from __future__ import annotations

import html
import re
from pathlib import Path

from adjudicator.campaign.verifier import verifier_page
from tests.browser import dumped_dom


def browser_verdict(record: str | bytes, folder: Path, fingerprint: str = "", head: str = "") -> dict:
    """{"status": "verified" | "failed", "verdict": its text, "details": ...} as the page
    shows them after checking ``record``."""
    folder.mkdir(parents=True, exist_ok=True)
    page = verifier_page(record)
    for name, value in (("fingerprint", fingerprint), ("head", head)):
        page = page.replace(f'id="{name}" placeholder', f'id="{name}" value="{html.escape(value)}" placeholder', 1)
    path = folder / "verify.html"
    path.write_text(page, encoding="utf-8")
    dom = dumped_dom(path, folder, 30000, 120)
    found = re.search(r'<div id="verdict"([^>]*)>(.*?)</div>\s*<div id="details">(.*?)</div>', dom, re.S)
    assert found, dom[-3000:]
    attributes, verdict, details = found.groups()
    status = re.search(r'data-status="(\w+)"', attributes)
    return {"status": status.group(1) if status else None, "verdict": html.unescape(verdict),
            "details": html.unescape(details)}


#: appended to the page: verify each record of ``window.RECORDS`` in turn with the page's
#: own ``verifyRecord`` and write the verdicts (JSON) into <pre id="results">
HARNESS = """
<script>
(async () => {
  const results = [];
  for (const [name, data, fingerprint] of window.RECORDS) {
    try {
      const text = new TextDecoder("utf-8", {fatal: true}).decode(base64(data));
      const v = await verifyRecord(text, fingerprint, "");
      results.push({name, status: "verified", batches: v.batches, draws: v.draws, sealed: v.sealed, voided: v.voided, ms: v.ms});
    } catch (e) {
      results.push({name, status: "failed", reason: e instanceof Failure ? e.message : "unusable: " + e});
    }
  }
  const out = document.createElement("pre");
  out.id = "results";
  out.textContent = JSON.stringify(results);
  document.body.appendChild(out);
})();
</script>
"""


def browser_verdicts(records: list[tuple[str, str | bytes, str]], folder: Path) -> dict[str, dict]:
    """Verify several records (name, JSON Lines, fingerprint or "") in one page load of the
    real headless chromium: name -> {"status", "reason" or "batches", "draws", ...}."""
    import base64
    import json

    folder.mkdir(parents=True, exist_ok=True)
    listed = [[name, base64.b64encode(text.encode("utf-8") if isinstance(text, str) else text).decode("ascii"), pin]
              for name, text, pin in records]
    page = verifier_page().replace("</body>", f"<script>window.RECORDS = {json.dumps(listed)};</script>"
                                              + HARNESS + "</body>")
    path = folder / "verify-many.html"
    path.write_text(page, encoding="utf-8")
    dom = dumped_dom(path, folder, 60000, 180)
    marker = '<pre id="results">'
    assert marker in dom, dom[-3000:]
    found = json.loads(html.unescape(dom.split(marker, 1)[1].split("</pre>", 1)[0]))
    return {item["name"]: item for item in found}
