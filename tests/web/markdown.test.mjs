// The rules page's Markdown reader: `node --test tests/web/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { markdown } from "../../clients/web/markdown.js";

test("headings, lists, tables and emphasis become HTML", () => {
  const html = markdown("# Taşlar\n\n**Kastet** — 106 taş\n\n- bir\n- iki\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
  assert.match(html, /<h1>Taşlar<\/h1>/);
  assert.match(html, /<p><strong>Kastet<\/strong> — 106 taş<\/p>/);
  assert.match(html, /<ul><li>bir<\/li><li>iki<\/li><\/ul>/);
  assert.match(html, /<thead><tr><th>a<\/th><th>b<\/th><\/tr><\/thead><tbody><tr><td>1<\/td><td>2<\/td><\/tr>/);
});

test("markup in the text is escaped and odd links go nowhere", () => {
  const html = markdown("<script>x</script> [a](javascript:alert(1)) [b](RULES.en.md)");
  assert.ok(!html.includes("<script>"));
  assert.match(html, /href="#"/);
  assert.match(html, /href="rules.html\?doc=RULES.en.md"/); // rendered on the rules page, never raw Markdown
});
