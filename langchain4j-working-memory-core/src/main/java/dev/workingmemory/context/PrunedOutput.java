package dev.workingmemory.context;

/**
 * What {@link ToolOutputPruner#prune} made of a tool result.
 *
 * <p>Immutable and thread-safe.
 *
 * @param text           what the model should see: the original instance when nothing was pruned
 * @param pruned         whether anything was cut or collapsed
 * @param originalLines  the lines of the original
 * @param keptLines      the original lines shown whole or in part (markers and collapsed summaries not counted)
 * @param linesCut       the original lines not shown ({@code originalLines - keptLines})
 * @param charsCut       the characters of the original not shown
 * @param errorLinesKept error lines kept from the part that was cut
 */
public record PrunedOutput(String text, boolean pruned, int originalLines, int keptLines, int linesCut, long charsCut,
                           int errorLinesKept) {

    static PrunedOutput unchanged(String text, int lines) {
        return new PrunedOutput(text, false, lines, lines, 0, 0, 0);
    }
}
