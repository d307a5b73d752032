// The souvenir jigsaws (application-spec §9): 7 columns by 8 rows, one piece for every
// OBJECTS_PER_PIECE answers (30; 3 in developer mode), so 1680 answers a jigsaw. A course's
// answers earn pieces on their own (the puzzle-piece message comes when a course's total is a
// multiple of the constant, §4), and the pieces fill the souvenirs in their order: the first 56
// complete the first souvenir, the next 56 the second, and so on.
import type { MyRecordsResponse } from '../../../../shared/api';
import { OBJECTS_PER_PIECE } from '../../developerMode';

export const JIGSAW_COLUMNS = 7;
export const JIGSAW_ROWS = 8;
export const PIECES_PER_JIGSAW = JIGSAW_COLUMNS * JIGSAW_ROWS;

/** Pieces earned by the answers of each course. */
export function piecesEarned(answersPerCourse: Iterable<number>, objectsPerPiece: number): number {
  let pieces = 0;
  for (const count of answersPerCourse) pieces += Math.floor(count / objectsPerPiece);
  return pieces;
}

/** Pieces earned by every course's answers (GET /api/my_records). */
export function piecesOf(records: MyRecordsResponse): number {
  return piecesEarned(
    Object.values(records).map((record) => record.answers_count),
    OBJECTS_PER_PIECE,
  );
}

/** Pieces shown on each of `souvenirs` jigsaws when `pieces` are earned. */
export function piecesPerSouvenir(pieces: number, souvenirs: number): number[] {
  return Array.from({ length: souvenirs }, (_, index) =>
    Math.max(0, Math.min(PIECES_PER_JIGSAW, pieces - index * PIECES_PER_JIGSAW)),
  );
}

/**
 * The cells (row-major index) of a jigsaw shown after `revealed` pieces. Pieces come in a fixed
 * scattered order (index × 23 mod 56; 23 and 56 share no factor, so every cell comes once), so
 * that the picture emerges across the whole jigsaw rather than row by row.
 */
export function revealedCells(revealed: number): Set<number> {
  const cells = new Set<number>();
  for (let piece = 0; piece < Math.min(revealed, PIECES_PER_JIGSAW); piece++)
    cells.add((piece * 23) % PIECES_PER_JIGSAW);
  return cells;
}

/** Whether the piece that took the total to `pieces` completed a jigsaw. */
export function completesJigsaw(pieces: number): boolean {
  return pieces > 0 && pieces % PIECES_PER_JIGSAW === 0;
}
