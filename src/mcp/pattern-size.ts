/**
 * How many instructions a pattern will compile to, estimated from its text
 * before RE2JS compiles it. RE2 writes `x{n,m}` out as `m` copies of `x`, and
 * RE2JS compiles programs of over a million instructions: 1,400 characters
 * such as `(?:a?a?…){1000}` took a second and 270 MB to compile before the
 * instruction bound refused the result. The estimate refuses them first.
 */

/** One group being read: the size of its branches so far, and of its last atom. */
interface Group {
  readonly capturing: boolean;
  branches: number;
  current: number;
  last: number;
}

/** Where a class that starts at `at` (its `[`) ends: the index after its `]`. */
function classEnd(pattern: string, at: number): number {
  let index = at + 1;
  while (index < pattern.length && pattern[index] !== "]") {
    index += pattern[index] === "\\" ? 2 : 1;
  }
  return index + 1;
}

/** Where an escape that starts at `at` (its backslash) ends; its atom is one instruction. */
function escapeEnd(pattern: string, at: number): number {
  const letter = pattern[at + 1];
  // `\p{…}`, `\P{…}`, `\u{…}`, `\k<name>`: up to the closing brace or bracket.
  if ((letter === "p" || letter === "P" || letter === "u") && pattern[at + 2] === "{") {
    return pattern.indexOf("}", at) + 1;
  }
  if (letter === "k" && pattern[at + 2] === "<") return pattern.indexOf(">", at) + 1;
  return at + 2;
}

const REPEAT = /^\{(\d+)(,(\d*))?\}/;

/**
 * An upper estimate of the instructions `pattern` (valid ECMAScript under the
 * `u` flag) compiles to in RE2: an atom (a character, a class, an escape) is
 * one, a group its contents (plus two when it captures), an alternative one more, `*`, `+` and
 * `?` one more, and `x{n,m}` is `m` copies of `x` (`n + 1` for `x{n,}`).
 *
 * @example
 * estimatePatternSize("^[a-z]+$"); // 6 (RE2JS: 6)
 * estimatePatternSize("(?:a?){1000}"); // 2_002 (RE2JS: 2,002)
 */
export function estimatePatternSize(pattern: string): number {
  const groups: Group[] = [{ capturing: false, branches: 0, current: 0, last: 0 }];
  let index = 0;
  const top = (): Group => groups[groups.length - 1] as Group;
  const atom = (size: number): void => {
    const group = top();
    group.current += size;
    group.last = size;
  };
  while (index < pattern.length) {
    const char = pattern[index];
    if (char === "\\") {
      index = escapeEnd(pattern, index);
      atom(1);
    } else if (char === "[") {
      index = classEnd(pattern, index);
      atom(1);
    } else if (char === "(") {
      // `(?:`, `(?=`, `(?!`, `(?<name>`, `(?<=`, `(?<!`: the group's own syntax, no atom.
      // Only a plain group captures (a named one is rewritten as `(?:` for RE2).
      const capturing = pattern[index + 1] !== "?";
      groups.push({ capturing, branches: 0, current: 0, last: 0 });
      if (capturing) {
        index += 1;
      } else {
        const named = pattern[index + 2] === "<" && !"=!".includes(pattern[index + 3] ?? "");
        index = named ? pattern.indexOf(">", index) + 1 : index + 3;
      }
    } else if (char === ")") {
      const closed = groups.pop() as Group;
      atom(closed.branches + closed.current + (closed.capturing ? 2 : 0));
      index += 1;
    } else if (char === "|") {
      const group = top();
      group.branches += group.current + 1;
      group.current = 0;
      group.last = 0;
      index += 1;
    } else if (char === "*" || char === "+" || char === "?") {
      const group = top();
      group.current += 1;
      group.last += 1;
      index += 1;
      // A lazy quantifier's `?` is part of it.
      if (pattern[index] === "?") index += 1;
    } else if (char === "{") {
      const repeat = REPEAT.exec(pattern.slice(index, index + 24));
      if (repeat === null) {
        // Not a quantifier (refused as syntax under the u flag): one character.
        atom(1);
        index += 1;
        continue;
      }
      const least = Number(repeat[1]);
      const most =
        repeat[2] === undefined ? least : repeat[3] === "" ? least + 1 : Number(repeat[3]);
      const group = top();
      // The atom written `most` times in all, plus an instruction for each optional copy.
      group.current += group.last * (Math.max(most, 1) - 1) + Math.max(most - least, 0);
      group.last *= Math.max(most, 1);
      index += repeat[0].length;
      if (pattern[index] === "?") index += 1;
    } else {
      atom(1);
      index += 1;
    }
  }
  const root = groups[0] as Group;
  // The program's own two: its start and its match.
  return root.branches + root.current + 2;
}
