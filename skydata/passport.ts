// The three passport stamp images (application-spec §2 Passport: stamps per completed level,
// three stamp images), drawn here as SVG: our own designs, made of circles, paths and the
// product's name, in the translucent ink of a rubber stamp. The passport picks one per level by
// the level's place in its course (src/app/features/passport/stamps.ts).
import fs from 'node:fs';
import path from 'node:path';
import { STAMP_IMAGES } from '../shared/rewards';

export const STAMP_FILES = STAMP_IMAGES;

const SIZE = 160;
const C = SIZE / 2;

/** Points of a logarithmic spiral arm, as an SVG path around (cx, cy). */
function spiralArm(cx: number, cy: number, start: number, turns: number, r0: number, growth: number): string {
  const points: string[] = [];
  const steps = Math.round(turns * 48);
  for (let i = 0; i <= steps; i++) {
    const angle = start + (i / 48) * 2 * Math.PI;
    const r = r0 * Math.exp(growth * (angle - start));
    points.push(`${(cx + r * Math.cos(angle)).toFixed(1)},${(cy + r * Math.sin(angle)).toFixed(1)}`);
  }
  return `M${points.join(' L')}`;
}

/** A five-pointed star centred on (cx, cy). */
function star(cx: number, cy: number, outer: number): string {
  const points: string[] = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? outer : outer * 0.42;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push(`${(cx + r * Math.cos(angle)).toFixed(1)},${(cy + r * Math.sin(angle)).toFixed(1)}`);
  }
  return `M${points.join(' L')}Z`;
}

function svg(ink: string, rotate: number, body: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">`,
    `<g transform="rotate(${rotate} ${C} ${C})" fill="none" stroke="${ink}" stroke-opacity="0.85" fill-opacity="0.85">`,
    body,
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}

const LETTERING = 'font-family="system-ui, sans-serif" font-weight="700" letter-spacing="2"';

/** A round stamp: double ring, the name around it, a spiral galaxy in the middle. */
function roundStamp(): string {
  const arms = [0, Math.PI]
    .map((start) => `<path d="${spiralArm(C, C, start, 1.1, 5, 0.28)}" stroke-width="3.2" stroke-linecap="round"/>`)
    .join('');
  return svg(
    '#c0392b',
    -8,
    [
      `<circle cx="${C}" cy="${C}" r="74" stroke-width="5"/>`,
      `<circle cx="${C}" cy="${C}" r="64" stroke-width="2"/>`,
      `<path id="arc" d="M ${C - 55} ${C} A 55 55 0 0 1 ${C + 55} ${C}"/>`,
      `<text ${LETTERING} font-size="15" fill="#c0392b" stroke="none"><textPath href="#arc" startOffset="50%" text-anchor="middle">GALAXY CRUISE</textPath></text>`,
      `<circle cx="${C}" cy="${C}" r="4" fill="#c0392b"/>`,
      arms,
      `<path d="${star(C - 46, C + 30, 6)}" fill="#c0392b" stroke="none"/>`,
      `<path d="${star(C + 46, C + 30, 6)}" fill="#c0392b" stroke="none"/>`,
    ].join('\n'),
  );
}

/** A framed stamp: notched rectangle, a sailing ship under a ringed planet. */
function shipStamp(): string {
  return svg(
    '#1f5fbf',
    6,
    [
      '<rect x="14" y="22" width="132" height="116" rx="10" stroke-width="5"/>',
      '<rect x="22" y="30" width="116" height="100" rx="6" stroke-width="1.5" stroke-dasharray="5 3"/>',
      '<circle cx="108" cy="56" r="11" stroke-width="3"/>',
      '<ellipse cx="108" cy="56" rx="21" ry="6" stroke-width="2.5" transform="rotate(-18 108 56)"/>',
      '<path d="M46 100 L114 100 L104 114 L56 114 Z" fill="#1f5fbf" stroke="none"/>',
      '<path d="M80 44 L80 98" stroke-width="3"/>',
      '<path d="M80 48 L58 94 L80 94 Z" fill="#1f5fbf" stroke="none"/>',
      '<path d="M84 58 L102 94 L84 94 Z" stroke-width="2.5"/>',
      `<path d="${star(44, 52, 5)}" fill="#1f5fbf" stroke="none"/>`,
      `<path d="${star(60, 40, 3.5)}" fill="#1f5fbf" stroke="none"/>`,
      `<text x="${C}" y="130" ${LETTERING} font-size="11" text-anchor="middle" fill="#1f5fbf" stroke="none">GALAXY CRUISE</text>`,
    ].join('\n'),
  );
}

/** An octagonal stamp: an elliptical galaxy with a merging companion and its tidal tail. */
function mergerStamp(): string {
  const octagon = (r: number) =>
    Array.from({ length: 8 }, (_, i) => {
      const angle = Math.PI / 8 + (i * Math.PI) / 4;
      return `${(C + r * Math.cos(angle)).toFixed(1)},${(C + r * Math.sin(angle)).toFixed(1)}`;
    }).join(' ');
  return svg(
    '#1e8449',
    -3,
    [
      `<polygon points="${octagon(74)}" stroke-width="5"/>`,
      `<polygon points="${octagon(64)}" stroke-width="1.5"/>`,
      `<ellipse cx="${C - 12}" cy="${C - 6}" rx="24" ry="15" stroke-width="3" transform="rotate(-25 ${C - 12} ${C - 6})"/>`,
      `<ellipse cx="${C - 12}" cy="${C - 6}" rx="11" ry="7" fill="#1e8449" stroke="none" transform="rotate(-25 ${C - 12} ${C - 6})"/>`,
      `<circle cx="${C + 28}" cy="${C - 22}" r="7" fill="#1e8449" stroke="none"/>`,
      `<path d="M${C + 34} ${C - 28} C ${C + 46} ${C - 40}, ${C + 44} ${C - 10}, ${C + 36} ${C + 14}" stroke-width="3" stroke-linecap="round"/>`,
      `<path d="M${C - 32} ${C + 6} C ${C - 44} ${C + 20}, ${C - 30} ${C + 38}, ${C - 4} ${C + 36}" stroke-width="2.5" stroke-linecap="round"/>`,
      `<text x="${C}" y="${C + 58}" ${LETTERING} font-size="11" text-anchor="middle" fill="#1e8449" stroke="none">GALAXY CRUISE</text>`,
    ].join('\n'),
  );
}

/** Writes the three stamps under `root` (the data repository) and returns their paths in it. */
export function writeStamps(root: string): readonly string[] {
  fs.mkdirSync(path.join(root, 'passport'), { recursive: true });
  const drawings = [roundStamp(), shipStamp(), mergerStamp()];
  STAMP_FILES.forEach((file, index) => fs.writeFileSync(path.join(root, file), drawings[index]));
  return STAMP_FILES;
}
