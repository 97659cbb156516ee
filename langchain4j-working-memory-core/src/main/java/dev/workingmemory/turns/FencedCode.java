package dev.workingmemory.turns;

import java.util.List;

/**
 * Which pieces of a message are code: half of their characters or more inside a Markdown code fence (three backticks
 * or three tildes, closed by the same; one left open runs to the message's end). Such a piece gets no vector: a
 * sentence model trained on English says little about source code, while its names and literals are what the keyword
 * search finds it by. On BEAM's first chat, two fifths of what the user wrote is pasted code; embedding it was a third
 * of the chat's indexing, and leaving it to the keyword search kept BEAM's and LoCoMo's recall within their
 * run-to-run spread.
 *
 * <p>Thread-safe (stateless).
 */
final class FencedCode {

    private static final String BACKTICKS = "```";
    private static final String TILDES = "~~~";
    private static final int FENCE_LENGTH = 3;

    private FencedCode() {
    }

    /**
     * @param pieces the message's pieces in order, white space folded (a fence survives folding)
     * @param prefix how many characters each piece begins with that are not the message's (its line's label)
     * @return per piece, whether it is code; null when none is
     */
    static boolean[] of(List<String> pieces, int prefix) {
        boolean[] code = null;
        String open = null; // the fence the code inside was opened with; null outside
        for (int i = 0; i < pieces.size(); i++) {
            String piece = pieces.get(i);
            if (open == null && piece.indexOf(BACKTICKS, prefix) < 0 && piece.indexOf(TILDES, prefix) < 0) {
                continue; // prose: most pieces of most messages
            }
            int fenced = 0;
            int from = prefix;
            while (true) {
                int fence = open != null ? piece.indexOf(open, from) : first(piece, from);
                int end = fence < 0 ? piece.length() : fence;
                if (open != null) {
                    fenced += end - from;
                }
                if (fence < 0) {
                    break;
                }
                fenced += FENCE_LENGTH;
                open = open != null ? null : piece.substring(fence, fence + FENCE_LENGTH);
                from = fence + FENCE_LENGTH;
            }
            if (2 * fenced >= piece.length() - prefix) {
                if (code == null) {
                    code = new boolean[pieces.size()];
                }
                code[i] = true;
            }
        }
        return code;
    }

    /** @return where the first fence of either kind is from {@code from}, or -1 */
    private static int first(String piece, int from) {
        int backticks = piece.indexOf(BACKTICKS, from);
        int tildes = piece.indexOf(TILDES, from);
        return backticks < 0 ? tildes : tildes < 0 ? backticks : Math.min(backticks, tildes);
    }
}
