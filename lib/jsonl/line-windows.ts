/** Lines of an indexed file read on demand, a window of bytes at a time: for probes that stop after a few lines. */
import { lowerBound, upperBound } from "@/lib/columns/typed-columns";
import { readLineRangeBytes, type LineIndex } from "@/lib/jsonl/line-index";

/** Bytes one read takes (at least one whole line): the few lines a probe of either end usually needs. */
const WINDOW_BYTES = 64 << 10;

/**
 * The lines of `filePath` as its line index numbers them, each read once (with its neighbours, up
 * to {@link WINDOW_BYTES} a read) and kept for later calls: a scan from either end that stops
 * early reads only the windows it reached, where a fixed range (64 or 400 lines) read and decoded
 * every line of it. Not decoded: the caller decodes the lines it looks at.
 */
export class LineWindows {
  private readonly lines = new Map<number, Buffer>();

  constructor(
    readonly filePath: string,
    readonly index: LineIndex,
    private readonly windowBytes = WINDOW_BYTES,
  ) {}

  /**
   * The bytes of `line` (1-based, terminator excluded; a view valid as long as this reader). When
   * not read yet, the window read with it runs from `line` on (`toward` "end": a forward scan) or
   * up to `line` (`toward` "start": a backward scan).
   * @throws RangeError for a line outside the index; the AppError of {@link readLineRangeBytes}
   *   (not_found, io_error: the file is shorter than its index).
   */
  async line(line: number, toward: "start" | "end"): Promise<Buffer> {
    const known = this.lines.get(line);
    if (known !== undefined) return known;
    const { starts, lineCount, size } = this.index;
    if (!Number.isInteger(line) || line < 1 || line > lineCount) throw new RangeError(`Line ${line} is outside 1-${lineCount}.`);
    let first = line;
    let last = line;
    const endOf = (l: number) => (l < lineCount ? starts[l]! : size);
    if (toward === "end") {
      // Lines 1…k start within the budget; the last of them may run past it (then it is left).
      last = Math.max(line, upperBound(starts, starts[line - 1]! + this.windowBytes));
      if (last > line && endOf(last) - starts[line - 1]! > this.windowBytes) last -= 1;
    } else {
      // The first line starting within the budget before `line`'s end.
      first = Math.min(line, lowerBound(starts, endOf(line) - this.windowBytes) + 1);
    }
    for (const read of await readLineRangeBytes(this.filePath, this.index, first, last)) this.lines.set(read.line, read.bytes);
    return this.lines.get(line)!;
  }
}
