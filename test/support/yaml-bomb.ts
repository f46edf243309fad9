/** A YAML alias bomb ("billion laughs") for tests: `levels` levels of nine aliases each to the level below, 9^levels strings once expanded. */
export function aliasBomb(levels: number, key = "tags"): string {
  const lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i <= levels; i++) lines.push(`l${i}: &l${i} [${Array.from({ length: 9 }, () => `*l${i - 1}`).join(", ")}]`);
  lines.push(`${key}: *l${levels}`);
  return `${lines.join("\n")}\n`;
}
