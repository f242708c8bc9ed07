import assert from "node:assert/strict";
import { columnsOf, cutToColumns, fitNames, wrapToRows } from "./review_text.ts";

Deno.test("columnsOf counts wide characters twice", () => {
  assert.equal(columnsOf("abc"), 3);
  assert.equal(columnsOf("日本"), 4);
  assert.equal(columnsOf("😀"), 2);
});

Deno.test("cutToColumns keeps both ends and counts what it cut", () => {
  assert.equal(cutToColumns("short", 10), "short");
  const cut = cutToColumns(`start${"x".repeat(1000)}end`, 40);
  assert.ok(columnsOf(cut) <= 40, cut);
  assert.match(cut, /^startx*…\[\d+ characters cut\]…x*end$/);
  const count = Number(cut.match(/\[(\d+) characters/)![1]);
  assert.equal(
    Array.from(cut).length - columnsOf("…[ characters cut]…") - String(count).length,
    1008 - count,
  );
  const wide = cutToColumns("日".repeat(500), 40);
  assert.ok(columnsOf(wide) <= 40, wide);
  assert.match(wide, /^日+…\[[\d,]+ characters cut\]…日+$/);
});

Deno.test("wrapToRows fills rows, cuts what does not fit and never splits the cut's note", () => {
  assert.deepEqual(wrapToRows("abcdefghij", 4, 3, 5), ["abcd", "efg", "hij"]);
  assert.deepEqual(wrapToRows("", 4, 3, 5), [""]);
  const rows = wrapToRows(`head${"y".repeat(5000)}tail`, 60, 70, 3);
  assert.equal(rows.length, 3);
  assert.ok(columnsOf(rows[0]!) <= 60 && rows.slice(1).every((row) => columnsOf(row) <= 70));
  assert.ok(rows[0]!.startsWith("head") && rows.at(-1)!.endsWith("tail"), rows.join("\n"));
  assert.ok(rows.some((row) => /…\[[\d,]+ characters cut\]…/.test(row)), rows.join("\n"));
  const one = wrapToRows(`a${"b".repeat(200)}z`, 50, 50, 1);
  assert.equal(one.length, 1);
  assert.match(one[0]!, /^ab+…\[\d+ characters cut\]…b+z$/);
});

Deno.test("fitNames lists what fits and counts the rest", () => {
  assert.equal(fitNames(["A", "B"], 40), "A, B");
  const names = Array.from({ length: 30 }, (_, i) => `NAME_${i}`);
  const shown = fitNames(names, 40);
  assert.ok(columnsOf(shown) <= 40, shown);
  assert.match(shown, /^NAME_0, NAME_1, .*, \+\d+ more$/);
  const kept = shown.split(", ").length - 1;
  assert.equal(shown.endsWith(`+${30 - kept} more`), true, shown);
});
